import type { ReadWord } from "../connectors/sdk/negated-words";
import { wordTokens } from "./choice-words";
import { asksAboutSubject } from "./query-clauses";

/** A mark that ends a clause, between two words. */
export const CLAUSE_MARK = /[,.;:!?！？。，；]|\s[-–—]+\s|[–—]/;

/**
 * The words a question asks about the record after its name ("did the lamp order | ship?", "has
 * my lamp order | shipped yet?"), by index: what the user wants to know, never what the record
 * is. Read as a description, the unshipped lamp order was "contradicted" by "ship" and the words
 * named no order (a regression: "the lamp order" names exactly one). A name right after the
 * question word ("which order shipped") is described by the words after it.
 */
export function askedAfterName(text: string, words: ReadWord[], noun: string): Set<number> {
  const out = new Set<number>();
  let start = 0;
  for (let i = 0; i <= words.length; i++) {
    const word = words[i];
    const prev = words[i - 1];
    const ends = !word || (prev && CLAUSE_MARK.test(text.slice(prev.at + prev.raw.length, word.at)));
    if (!ends || i === start) continue;
    const clause = words.slice(start, i);
    const last = clause[clause.length - 1] as ReadWord;
    const tail = text.slice(last.at + last.raw.length, word ? word.at : text.length);
    const lower = clause.map((w) => w.raw.toLowerCase()).join(" ");
    const at = clause.findIndex((w) => wordTokens(w.raw)[0] === noun);
    if (at > 0 && asksAboutSubject(lower, /[?？]/.test(tail)))
      for (let j = start + at + 1; j < i; j++) out.add(j);
    start = i;
  }
  return out;
}
