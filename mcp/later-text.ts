/**
 * The required fields of later steps on one line (`later: reason (free text, the user's words)`):
 * an agent that knows them sends them with the current choice, and the flow skips their steps.
 */
export function laterLine(value: unknown): string | null {
  const later = Object.entries((value ?? {}) as Record<string, string>);
  if (!later.length) return null;
  return `later (may go in this same advance): ${later.map(([f, note]) => `${f} (${note})`).join("; ")}`;
}
