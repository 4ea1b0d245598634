/**
 * The query words a listing's rows show in their table — as a column's name ("unassigned" and
 * an `owner_id` column) or as a cell's value ("high" in a priority column) — spelt as the query spelt
 * them. A word the free-text filter matched nowhere but the rows show asks about a column the
 * listing has no filter for: "No record matches `unassigned`" would be a false no. A check before
 * round 10 found exactly that for "open unassigned tickets" (two open ones had nobody on them).
 *
 * Only table lines are read (never the order line or links' targets), and words are compared by a
 * small stem, never as patterns.
 */
export function wordsRowsShow(leftover: string, markdown: string): string[] {
  const shown = new Set<string>();
  for (const line of markdown.split("\n")) {
    if (!line.startsWith("|")) continue;
    for (const token of tokens(line.replace(/\]\([^)]*\)/g, "]"))) shown.add(stem(token));
  }
  return [...new Set(tokens(leftover))].filter((w) => shown.has(stem(w)));
}

/** Letters and digits runs; `_` splits too, so `owner_id` is "owner" and "id". */
const tokens = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/**
 * "unassigned", "assigned" and "assigner" → "assign"; "shipped" and "shipping" → "shipp". A
 * negating prefix is dropped: the column that says whether is the same column.
 */
function stem(word: string): string {
  const base = /^(un|non)(.{4,})$/.exec(word)?.[2] ?? word;
  const cut = /^(.{4,}?)(ing|ed|ee|es|s|er)$/.exec(base);
  return cut?.[1] ?? base;
}
