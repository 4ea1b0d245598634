import { wordTable } from "./word-table";

/** Small counts as a person writes them: digits, or the words up to a dozen. */
const NUMBER_WORDS: Readonly<Record<string, number>> = wordTable({
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  dozen: 12,
});

/** The count one word says ("2", "two"), or undefined. */
export function countOfWord(word: string): number | undefined {
  const t = word.toLowerCase();
  if (/^\d{1,2}$/.test(t) && Number(t) > 0) return Number(t);
  return NUMBER_WORDS[t];
}

/** How many a part of a request asks for: its first number ("2", "two"); undefined when it says none. */
export function countIn(part: string): number | undefined {
  for (const t of part.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const n = countOfWord(t);
    if (n) return n;
  }
  return undefined;
}

/** Places in an order as a person writes them ("second", "3rd"): up to the tenth. */
const ORDINAL_WORDS: Readonly<Record<string, number>> = wordTable({
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
});

/** The place one word says ("second", "2nd"), or undefined: "the second cheapest" is no count. */
export function placeOfWord(word: string): number | undefined {
  const t = word.toLowerCase();
  const written = /^(\d{1,2})(?:st|nd|rd|th)$/.exec(t)?.[1];
  if (written && Number(written) > 0) return Number(written);
  return ORDINAL_WORDS[t];
}
