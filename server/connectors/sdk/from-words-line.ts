import { saysWord } from "./says-word";

type Json = Record<string, unknown>;

/** How long a value must be to be named by its field alone where the summary shows it. */
const LONG = 24;

/**
 * The fields taken from the user's words (a label the agent sent, read as its record, among
 * them), each with why its record was the one picked. Where the summary is shown in full beside
 * it, a long value it already shows (the user's reason, a comment) is named by its field alone,
 * and a why it shows (a row's note) is not repeated. `shown` draws each value and why as the
 * face shows data (a page escapes it); the action face's text shows it as it is. Both faces say
 * this one line: a browse page whose summary named the shipping method alone, where the words
 * asked for the cheapest, sent a model to read the whole action (1,014 tokens) to check it.
 */
export function fromWordsLine(
  result: Json,
  summary: string,
  shown: (text: string) => string = (text) => text,
): string | null {
  const fromWords = Object.entries((result.from_words ?? {}) as Record<string, string>);
  if (!fromWords.length) return null;
  const why = (result.why_picked ?? {}) as Record<string, string>;
  const parts = fromWords.map(([f, v]) => {
    // A quoted value (the user's reason) as the summary shows it: without its quotes. Only text
    // long enough to cost: an id or a code stays beside its field, where it is read at a glance.
    const said = String(v).replace(/^"([^"]*)"/, "$1");
    const inSummary = said.length >= LONG && summary !== "" && saysWord(summary, said);
    const reason = why[f] && !(summary !== "" && summary.includes(why[f])) ? ` (${shown(why[f])})` : "";
    return `${f}${inSummary ? " (see summary)" : ` = ${shown(String(v))}`}${reason}`;
  });
  return `taken from the words: ${parts.join(", ")}`;
}
