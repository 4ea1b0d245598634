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

/**
 * The rows of a whole listing that hold (or, "without a …", do not hold) a value in a column the
 * words added ("my bookings with a voucher" → the rows whose `voucher_code` is set), where the
 * listing has no filter for it. Set CA: a question for the orders that had one of the shop's
 * price reductions showed all eight orders, seven of them with none. Only a column this search added for that very word (so one
 * the listing declares), only where the listing was read whole on one page (`whole`: rows of
 * other pages are unread), and said in one line; a word naming no added column, or naming one whose rows all
 * hold a value, leaves the page as it was.
 */
export function rowsWithField(
  page: BrowsePage,
  query: string,
  added: readonly string[],
  declared: Readonly<Record<string, readonly string[]>>,
  whole: boolean,
): { page: BrowsePage; said: string } | null {
  if (page.outcome !== "applied" || !added.length || !whole) return null;
  const lower = query.toLowerCase();
  const asked = [
    ...[...lower.matchAll(WITH)].map((m) => ({ word: m[1] ?? "", holds: true })),
    ...withoutWords(lower).map((word) => ({ word, holds: false })),
  ];
  const named = asked
    .map((a) => ({ ...a, columns: closest(columnsWordsName(a.word, added, declared).columns) }))
    .filter((a) => a.columns.length);
  // One reading only: "with a voucher and without a return" is two, and is left to the rows.
  const [only, other] = named;
  if (!only || other) return null;
  const lines = page.markdown.split("\n");
  const table = firstTable(lines);
  if (!table) return null;
  const at = only.columns.map((c) => table.names.indexOf(c)).filter((i) => i >= 0);
  if (!at.length) return null;
  const body = lines.slice(table.head + 2, table.end);
  const set = (line: string) => at.some((i) => !UNSET.test(cellValue(cells(line)[i] ?? "")));
  const kept = body.filter((l) => set(l) === only.holds);
  if (kept.length === body.length) return null;
  const column = only.columns.map(code).join(" or ");
  return {
    page: withKeptRows(page, table, kept),
    said: `Only rows ${only.holds ? "with" : "without"} a ${column}: ${kept.length} of the ${body.length} (the listing cannot filter by it).`,
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
