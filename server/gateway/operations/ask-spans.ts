import { type QueryClause, queryClauses } from "../../engine/query-clauses";
import { asksOnlyToRead } from "../../engine/top-match";

/** One ask of the user's words: its clause, and its words as the user wrote them. */
export interface AskSpan {
  clause: QueryClause;
  /**
   * The ask's words as written, with the text it carries: the message it tells, text quoted for
   * it, or the detail after its colon ("resolve the headphones ticket: parcel found").
   */
  words: string;
  /** Where its clause stands in the lower-cased words (-1: not found), and where its words end. */
  at: number;
  end: number;
  /** Where its words end in the words as written (-1: not found). */
  writtenEnd: number;
}

/**
 * The asks of the words, in order (clauses that ask, besides those that only read: "find …" sets
 * the scene), each with the words the user wrote for it. Lower-casing may change a text's length
 * ("İ" is two characters lower-cased), so offsets are mapped back to the words as written.
 */
export function askSpans(intent: string): { lower: string; asks: AskSpan[] } {
  const { lower, original } = lowerWithOffsets(intent);
  const clauses = queryClauses(lower);
  let from = 0;
  const asks: AskSpan[] = [];
  clauses.forEach((clause, i) => {
    if (clause.role !== "request" || asksOnlyToRead(clause.text)) return;
    const at = lower.indexOf(clause.text, from);
    if (at < 0) {
      asks.push({ clause, words: clause.text, at, end: -1, writtenEnd: -1 });
      return;
    }
    from = at + clause.text.length;
    // The run of clauses it carries after it: each is its text, never an ask of its own.
    for (let j = i + 1; clauses[j]?.told || clauses[j]?.detail; j++) {
      const text = (clauses[j] as QueryClause).text;
      const end = lower.indexOf(text, from);
      if (end < 0) break;
      from = end + text.length;
    }
    const writtenEnd = original(from);
    asks.push({ clause, words: intent.slice(original(at), writtenEnd), at, end: from, writtenEnd });
  });
  return { lower, asks };
}

/**
 * The text lower-cased, with the offset in the original text of each offset in the lower-cased
 * one: a character may lower-case to more than one ("İ" → "i̇"), so one index does not serve both.
 */
function lowerWithOffsets(text: string): { lower: string; original: (at: number) => number } {
  const starts: number[] = [];
  let lower = "";
  let offset = 0;
  for (const ch of text) {
    const low = ch.toLowerCase();
    for (let i = 0; i < low.length; i++) starts.push(offset);
    lower += low;
    offset += ch.length;
  }
  return { lower, original: (at) => (at >= starts.length ? text.length : (starts[at] as number)) };
}
