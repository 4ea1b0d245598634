import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import { code } from "../connectors/sdk/markdown";
import { boundText, currencyIn, withinBound } from "./amount-words";
import { type NarrowedListing, withParams } from "./listing-words";
import { navigate } from "./navigate";
import type { BrowsePage } from "./render-page";
import { words } from "./route-words";
import { cells, cellValue, firstTable, withKeptRows } from "./table-cells";

/** Rows a listing shows at most on one page (listPage's and imported listings' `per_page` ceiling). */
const WHOLE_PAGE = 50;

/** A page that states no total may have more: only a stated total read whole is all of it. */
function complete(page: BrowsePage): boolean {
  return typeof page.total === "number" && page.rows === page.total;
}

/**
 * The opened listing as fully as one bounded read gives it: as it is when it is all there (or
 * already asked for a page size), else read once more with its fullest page.
 */
export async function fullestPage(backend: BrowseBackend, opened: BrowsePage): Promise<BrowsePage> {
  if (complete(opened) || /[?&]per_page=/.test(opened.uri)) return opened;
  const fuller = await navigate(backend, withParams(opened.uri, [`per_page=${WHOLE_PAGE}`]));
  return fuller.outcome === "applied" ? fuller : opened;
}

/** Which of a listing's rows were read, as a line says it ("all 9 rows read"). */
export function rowsRead(page: BrowsePage, read: number): string {
  return complete(page)
    ? `all ${read} rows read`
    : typeof page.total === "number"
      ? `this page's ${read} rows of ${page.total} read; the next pages are not`
      : `this page's ${read} rows read; more may follow`;
}

/** A money cell's amount ("$1,234.50" → 1234.5), or null when it holds none. */
function cellAmount(cell: string): number | null {
  const number = /-?\d[\d,]*(?:\.\d+)?/.exec(cellValue(cell))?.[0];
  return number === undefined ? null : Number(number.replace(/,/g, ""));
}

/** An amount written as a cell of the column writes one ("$89.00" → "$30.00"). */
function writtenLike(sample: string, amount: number): string {
  const digits = /\.(\d+)/.exec(sample)?.[1]?.length ?? 0;
  const text = amount.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return /\d/.test(sample) ? sample.replace(/\d[\d,]*(?:\.\d+)?/, text) : text;
}

/**
 * The money column the words compare: one they name ("total", "price"), else the table's first
 * (the listing's main amount). Only columns the listing declares as money.
 */
function comparedColumn(names: readonly string[], money: readonly string[], q: string): string | undefined {
  const said = new Set(words(q));
  const columns = names.filter((n) => money.includes(n));
  return columns.find((c) => words(c.replace(/[_.-]+/g, " ")).every((w) => said.has(w))) ?? columns[0];
}

/**
 * The opened listing with only the rows whose money column passes the bound the words set
 * ("under 30 dollars" → price under $30.00), said in one line. Applied here, to the rows read:
 * a listing with more pages is read once more with its fullest page, and where even that is not
 * all of it the line says which rows it read. A listing with no money column says the bound was
 * not applied, never reads its number as text.
 */
export async function amountRows(
  backend: BrowseBackend,
  listing: NarrowedListing,
  opened: BrowsePage,
  q: string,
): Promise<{ page: BrowsePage; said: string }> {
  const bound = listing.amount;
  if (!bound || opened.outcome !== "applied") return { page: opened, said: "" };
  const page = await fullestPage(backend, opened);
  const lines = page.markdown.split("\n");
  const table = firstTable(lines);
  const column = table ? comparedColumn(table.names, page.moneyColumns ?? [], q) : undefined;
  if (!table || !column)
    return {
      page: opened,
      said: `${code(bound.phrase)}: not applied (this listing shows no amount of money).`,
    };
  const at = table.names.indexOf(column);
  const body = lines.slice(table.head + 2, table.end);
  // "Under 30 euros" against amounts in dollars compares nothing the user meant: said, not applied.
  const shownIn = currencyIn(cellValue(cells(body[0] ?? "")[at] ?? ""));
  if (bound.currency && shownIn && bound.currency !== shownIn)
    return {
      page: opened,
      said: `${code(bound.phrase)}: not applied (${column} is in ${shownIn}, the words say ${bound.currency}).`,
    };
  const kept = body.filter((l) => {
    const amount = cellAmount(cells(l)[at] ?? "");
    return amount !== null && withinBound(amount, bound);
  });
  const sample = cells(body[0] ?? "")[at] ?? "";
  const said = `${column} ${boundText(bound, (n) => writtenLike(cellValue(sample), n))}`;
  const read = rowsRead(page, body.length);
  return {
    page: withKeptRows(page, table, kept),
    said: `Filtered: ${said} (${read}).`,
  };
}
