import { stemmedWords } from "./stemmed-words";

/**
 * The query words a listing's rows show in their table — as a column's name ("unassigned" and
 * an `owner_id` column) or as a cell's value ("high" in a priority column) — spelt as the query spelt
 * them. A word the free-text filter matched nowhere but the rows show asks about a column the
 * listing has no filter for: "No record matches `unassigned`" would be a false no. A check before
 * round 10 found exactly that for "open unassigned tickets" (two open ones had nobody on them).
 *
 * Only table lines are read (never the order line or links' targets), and words are compared by
 * their stems (stemmed-words.ts), a negating prefix dropped, never as patterns.
 */
export function wordsRowsShow(leftover: string, markdown: string): string[] {
  const table = markdown
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .join("\n");
  const shown = new Set(stemmedWords(table, { unnegated: true }).values());
  return [...stemmedWords(leftover, { unnegated: true })].filter(([, s]) => shown.has(s)).map(([w]) => w);
}
