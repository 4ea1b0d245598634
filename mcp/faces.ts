import { AGENT_FACES, type AgentFace } from "@/server/gateway/agent-faces";

/** The faces an agent can reach the gateway through on `/mcp`. */
export const FACES = AGENT_FACES;
export type Face = AgentFace;

/**
 * What an agent gets without `?faces=`: the actions and browse faces, within the 800 tokens of
 * tool definitions a model reads before its first call. The script face is opt-in
 * (`faces=script`, a list naming it, or `all`): it serves bulk and chained work that few agents
 * do, and every tools/list would otherwise carry its description to the many that never run one.
 * An admin may choose other faces for a key on the console's Agents page (Agent.faces).
 */
export const DEFAULT_FACES: readonly Face[] = ["actions", "browse"];

/** `?faces=actions`, `?faces=browse`, `?faces=script`, a list (`actions,browse`) or `all`; absent = DEFAULT_FACES. `null` when unknown. */
export function parseFaces(value: string | null | undefined): Face[] | null {
  if (value === null || value === undefined || value.trim() === "") return [...DEFAULT_FACES];
  if (value === "all") return [...FACES];
  const parts = value.split(",").map((part) => part.trim());
  const faces: Face[] = [];
  for (const part of parts) {
    if (!(FACES as readonly string[]).includes(part)) return null;
    if (!faces.includes(part as Face)) faces.push(part as Face);
  }
  return faces;
}

/**
 * The faces a call gets when its key has faces an admin chose: those it asked for (`?faces=`)
 * among the key's, or all of the key's when it asked for none. Empty when it asked only for
 * faces the key does not have.
 */
export function facesOfKey(keyFaces: readonly Face[], asked: Face[] | null): Face[] {
  return asked ? asked.filter((face) => keyFaces.includes(face)) : [...keyFaces];
}
