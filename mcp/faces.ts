/** The faces an agent can reach the gateway through on `/mcp`. */
export const FACES = ["actions", "browse", "script"] as const;
export type Face = (typeof FACES)[number];

/**
 * What an agent gets without `?faces=`: the actions and browse faces, within the 800 tokens of
 * tool definitions a model reads before its first call. The script face is opt-in
 * (`faces=script`, a list naming it, or `all`): it serves bulk and chained work that few agents
 * do, and every tools/list would otherwise carry its description to the many that never run one.
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
