import { code } from "../connectors/sdk/markdown";
import type { BrowsePage } from "./render-page";
import { cells, cellValue, firstTable, withKeptRows } from "./table-cells";
import { columnsWordsName } from "./words-rows-show";

/** "with a voucher", "had a return", "using a voucher": the word after names a field the rows hold. */
const WITH = /\b(?:with|had|has|have|used|using)\s+(?:a|an|any|some)\s+([a-z]+)/g;
/** "without a voucher", "with no return", "had no voucher". */
const WITHOUT = /\b(?:without(?:\s+(?:a|an|any))?|(?:with|had|has|have)\s+no)\s+([a-z]+)/g;

/** The words a query says a record is without ("without a voucher" → "voucher"), lower-case. */
export function withoutWords(query: string): string[] {
  return [...query.toLowerCase().matchAll(WITHOUT)].map((m) => m[1] ?? "").filter(Boolean);
}

/** A cell that holds nothing: no value, a zero amount or count, or false. */
const UNSET = /^(?:—|-|–|none|false|no|0|\$?0(?:\.00)?)?$/i;

/** What the words ask of a field's rows: the word, whether a row holds a value, the columns read. */
export interface FieldReading {
  word: string;
  holds: boolean;
  columns: string[];
}

/**
 * The one "with a ‹word›" / "without a ‹word›" of the query whose word names a column the search
 * added (`added`, by its name's words or the listing's `declared` ones); null where none does, or
 * more than one (one reading only: "with a voucher and without a return" is left to the rows).
 */
export function fieldReading(
  query: string,
  added: readonly string[],
  declared: Readonly<Record<string, readonly string[]>>,
): FieldReading | null {
  if (!added.length) return null;
  const lower = query.toLowerCase();
  const asked = [
    ...[...lower.matchAll(WITH)].map((m) => ({ word: m[1] ?? "", holds: true })),
    ...withoutWords(lower).map((word) => ({ word, holds: false })),
  ];
  const named = asked
    .map((a) => ({ ...a, columns: closest(columnsWordsName(a.word, added, declared).columns) }))
    .filter((a) => a.columns.length);
  const [only, other] = named;
  return only && !other ? only : null;
}

/**
 * The rows of a whole listing that hold (or, "without a …", do not hold) a value in the columns
 * of `reading` ("my bookings with a voucher" → the rows whose `voucher_code` is set), where the
 * listing has no filter for it. Set CA: a question for the orders that had one of the shop's
 * price reductions showed all eight orders, seven of them with none. Only where the page shows
 * every record (`rows` is its `total`: no other page unread, no row cut by an earlier reading
 * whose footer this one would have to merge with; review 63), said in one line; null where the
 * rows all fit the reading already or the table lacks the columns.
 */
export function rowsWithField(
  page: BrowsePage,
  reading: FieldReading,
): { page: BrowsePage; said: string } | null {
  if (page.outcome !== "applied" || typeof page.total !== "number" || page.rows !== page.total) return null;
  const lines = page.markdown.split("\n");
  const table = firstTable(lines);
  if (!table) return null;
  const at = reading.columns.map((c) => table.names.indexOf(c)).filter((i) => i >= 0);
  if (!at.length) return null;
  const body = lines.slice(table.head + 2, table.end);
  const set = (line: string) => at.some((i) => !UNSET.test(cellValue(cells(line)[i] ?? "")));
  const kept = body.filter((l) => set(l) === reading.holds);
  if (kept.length === body.length) return null;
  const column = reading.columns.map(code).join(" or ");
  return {
    page: withKeptRows(page, table, kept),
    said: `Only rows ${reading.holds ? "with" : "without"} a ${column}: ${kept.length} of the ${body.length} (the listing cannot filter by it).`,
  };
}

/**
 * Of the columns one word names, those whose own names say least beside it: "a return" is
 * `returned`, not `paid_not_returned` (set whenever nothing came back).
 */
function closest(columns: readonly string[]): string[] {
  const size = (c: string) => c.split(/[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])/).filter(Boolean).length;
  const least = Math.min(...columns.map(size));
  return columns.filter((c) => size(c) === least);
}
