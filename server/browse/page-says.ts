import { stemmedWords } from "./stemmed-words";

/**
 * Every word of `said` is a word of the page, by stem (stemmed-words.ts): words the page answers
 * itself ("coupons" on a cart that lists its coupons) filtered nothing but were not unused either.
 */
export function pageSays(page: string, said: string): boolean {
  const have = new Set(stemmedWords(page).values());
  return [...stemmedWords(said).values()].every((s) => have.has(s));
}
