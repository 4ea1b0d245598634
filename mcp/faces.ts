/** The faces an agent can reach the gateway through on `/mcp`. */
export const FACES = ["actions", "browse", "script"] as const;
export type Face = (typeof FACES)[number];

/** `?faces=actions`, `?faces=browse`, `?faces=script`, or a list (`actions,browse`); absent = all. `null` when unknown. */
export function parseFaces(value: string | null | undefined): Face[] | null {
  if (value === null || value === undefined || value.trim() === "" || value === "all") return [...FACES];
  const parts = value.split(",").map((part) => part.trim());
  const faces: Face[] = [];
  for (const part of parts) {
    if (!(FACES as readonly string[]).includes(part)) return null;
    if (!faces.includes(part as Face)) faces.push(part as Face);
  }
  return faces;
}
