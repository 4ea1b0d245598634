/**
 * Text a user quotes ('…', "…", “…”, ‘…’, 「…」, 『…』) is one piece of content (a note's body, a
 * message), never words to read as clauses or asks. An apostrophe inside a word ("don't",
 * "customers' rep") opens and closes nothing: single quotes count only at word edges, and one
 * between letters inside a quote ('we can't') does not close it.
 */
export const QUOTED =
  /"[^"]*"|“[^”]*”|「[^」]*」|『[^』]*』|(?<![\p{L}\p{N}])'(?:[^']|(?<=\p{L})'(?=\p{L}))*?'(?![\p{L}\p{N}])|‘(?:[^’]|(?<=\p{L})’(?=\p{L}))*?’(?![\p{L}\p{N}])/gu;

/** The first of the private-use characters that stand for quotes while the text is read. */
const FIRST_MARK = 0xe000;
/** How many quotes one text may mask (the private-use area's size); any beyond stay as written. */
const MAX_MARKS = 0x1900;

/** The characters that stand for quotes. */
const MARK = /[\ue000-\uf8ff]/g;
const HAS_MARK = /[\ue000-\uf8ff]/;

/**
 * The text with each quote replaced by one character of its own (a private-use one: no letter,
 * digit, space or mark, so nothing that splits clauses or asks sees inside it), and the way back.
 * Played: "… and add an internal note: 'Customer called, call back.'" was cut at the quote's
 * comma, and the note's ask was offered without its text. Text that holds a private-use character
 * of its own is read as written (its character could not be told from a mark).
 */
export function maskQuotes(text: string): {
  masked: string;
  /** Puts back the quotes a piece of the masked text holds. */
  unmask: (piece: string) => string;
} {
  const quotes: string[] = [];
  const masked = HAS_MARK.test(text)
    ? text
    : text.replace(QUOTED, (quote) => {
        if (quotes.length >= MAX_MARKS) return quote;
        quotes.push(quote);
        return String.fromCharCode(FIRST_MARK + quotes.length - 1);
      });
  if (!quotes.length) return { masked: text, unmask: (piece) => piece };
  return {
    masked,
    unmask: (piece) => piece.replace(MARK, (m) => quotes[m.charCodeAt(0) - FIRST_MARK] ?? m),
  };
}

/** Whether a piece of masked text is quotes alone: one or more, with no word of its own beside them. */
export function onlyQuoted(piece: string): boolean {
  return HAS_MARK.test(piece) && !/[\p{L}\p{N}]/u.test(piece.replace(MARK, ""));
}

/** The marks standing for quotes in a piece of masked text, in order (each unmasks to its quote). */
export function quoteMarks(piece: string): string[] {
  return piece.match(MARK) ?? [];
}
