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
  return shownIn(leftover, table).map(({ word }) => word);
}

/**
 * The fields a listing's rows hold beyond its table (its `moreColumns`) that the query's words
 * name by their own name's words ("requester" → `requester_email`, "category" → `category_id`),
 * read by the same stems as the table's words, and the words that named them: a search adds
 * those columns, so a question about that field is answered by the listing it opens (issue 23:
 * the model opened records one at a time for a field the rows held). Names shorter
 * than three letters and `id` name nothing on their own; `declared` adds the words a listing
 * declares for a field (set CA: "how much did it save me" named no column of what was taken off).
 */
export function columnsWordsName(
  leftover: string,
  fields: readonly string[],
  declared: Readonly<Record<string, readonly string[]>> = {},
): { columns: string[]; words: string[] } {
  const found = fields
    .map((field) => {
      // The words the listing declares for it name it as its own name's words do (route columnWords).
      const named = [fieldWords(field), ...(Object.hasOwn(declared, field) ? (declared[field] ?? []) : [])];
      return { field, hits: new Set(shownIn(leftover, named.join(" "), true).map((h) => h.word)) };
    })
    .filter(({ hits }) => hits.size > 0);
  // A column whose words another's hold and more is not what they name (set BO: three words
  // added the three columns holding one of them each, and not the one column holding all three,
  // which the model then asked for itself).
  const within = (a: Set<string>, b: Set<string>) => a.size < b.size && [...a].every((w) => b.has(w));
  const kept = found.filter(({ hits }) => !found.some((o) => within(hits, o.hits)));
  return {
    columns: kept.map(({ field }) => field),
    words: [...new Set(kept.flatMap(({ hits }) => [...hits]))],
  };
}

/**
 * Words of a field's name that nearly every listing's records have (`id`, `status`, `name`,
 * `total`…): a query holding one ("status of my tickets", "order total") asks about what the
 * table shows already, so they name no column to add.
 */
const GENERIC = new Set(["id", "status", "name", "title", "total", "type", "created", "updated"]);

/** A field's name as words: `requester_email` → "requester email"; generic and one- or two-letter parts left out. */
function fieldWords(field: string): string {
  return field
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length >= 3 && !GENERIC.has(w.toLowerCase()))
    .join(" ");
}

/**
 * The words of `leftover` whose stems `text` holds, as the query spelt them; `able` reads "-able"
 * as its verb on both sides (a column's name, not a row's text): "returnable" is `can_return`'s,
 * "billable" still `billable`'s (review 60c).
 */
function shownIn(leftover: string, text: string, able = false): Array<{ word: string }> {
  const shown = new Set(stemmedWords(text, { unnegated: true, able }).values());
  return [...stemmedWords(leftover, { unnegated: true, able })]
    .filter(([, s]) => shown.has(s))
    .map(([word]) => ({ word }));
}
