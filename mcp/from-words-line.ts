type Json = Record<string, unknown>;

/** Whether `text` holds `word` as a word of its own, whatever its case ("VERIFIED" in "verified"). */
export function saysWord(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^A-Za-z0-9_])${escaped}($|[^A-Za-z0-9_])`, "i").test(text);
}

/** How long a value must be to be named by its field alone where the summary shows it. */
const LONG = 24;

/**
 * The fields taken from the user's words, each with why its record was the one picked. Where the
 * summary is shown in full below, a long value it already shows (the user's reason, a comment) is
 * named by its field alone, and a why it shows (a row's note) is not repeated.
 */
export function fromWordsLine(result: Json, summary: string): string | null {
  const fromWords = Object.entries((result.from_words ?? {}) as Record<string, string>);
  if (!fromWords.length) return null;
  const why = (result.why_picked ?? {}) as Record<string, string>;
  const parts = fromWords.map(([f, v]) => {
    // A quoted value (the user's reason) as the summary shows it: without its quotes. Only text
    // long enough to cost: an id or a code stays beside its field, where it is read at a glance.
    const said = String(v).replace(/^"([^"]*)"/, "$1");
    const shown = said.length >= LONG && summary !== "" && saysWord(summary, said);
    const reason = why[f] && !(summary !== "" && summary.includes(why[f])) ? ` (${why[f]})` : "";
    return `${f}${shown ? " (see summary)" : ` = ${v}`}${reason}`;
  });
  return `taken from the words: ${parts.join(", ")}`;
}
