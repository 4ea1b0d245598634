/** The faces an agent key may be given on `/mcp` (mcp/faces.ts shows them; the console sets them). */
export const AGENT_FACES = ["actions", "browse", "script"] as const;
export type AgentFace = (typeof AGENT_FACES)[number];

/**
 * The faces an admin chose for a key, as stored in Agent.faces ("actions,browse"); null when none
 * were chosen (the key gets the default faces) or the stored text names no known face.
 */
export function parseAgentFaces(stored: string | null | undefined): AgentFace[] | null {
  if (!stored) return null;
  const faces = AGENT_FACES.filter((face) => stored.split(",").includes(face));
  return faces.length ? faces : null;
}
