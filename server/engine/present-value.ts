/** Whether a field holds a value: not absent, null or blank text (blank is what a form sends for nothing). */
export function present(v: unknown): boolean {
  return v !== undefined && v !== null && !(typeof v === "string" && v.trim() === "");
}
