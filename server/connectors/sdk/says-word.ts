/** Whether `text` holds `word` as a word of its own, whatever its case ("VERIFIED" in "verified"). */
export function saysWord(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^A-Za-z0-9_])${escaped}($|[^A-Za-z0-9_])`, "i").test(text);
}
