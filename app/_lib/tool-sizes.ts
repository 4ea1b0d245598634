export type ToolSize = { face: string; tools: number; tokens: number };

/**
 * The MCP tool-definition size per face. Measured by the MCP face's benchmark; until it
 * exposes a measuring function the console can call, the catalog says "not measured".
 */
export async function readToolSizes(): Promise<ToolSize[] | null> {
  return null;
}
