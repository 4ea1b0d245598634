import { code } from "../connectors/sdk/markdown";
import { pageSays } from "./page-says";
import { stemmedWords } from "./stemmed-words";

/** How many rows a line names by id. */
const ROWS_NAMED = 5;

/**
 * The line for words a listing without a text filter could not narrow by: the rows whose cells
 * show them, by id, when some do ("`backpack` is in row `ord_shipdiff`": issue 23's model had the
 * backpack's order among four and no word which it was); else that they filtered nothing. Empty
 * when the page says every word itself (the cart's "coupons"). Cells are compared by stems
 * (stemmed-words.ts), never as patterns; a row's id is its first cell.
 */
export function unfilteredWordsLine(leftover: string, page: string): string {
  if (!leftover) return "";
  const rows = rowsShowing(leftover, page);
  if (rows.length)
    return `${code(leftover)} filtered nothing (no text filter); the rows that show it: ${rows.map(code).join(", ")}.`;
  return pageSays(page, leftover)
    ? ""
    : `${code(leftover)} did not filter this listing: it has no text filter.`;
}

/**
 * The listing cut to the rows whose cells show the words, where a few of its rows do (the line
 * for it, and the page with only those rows), else null: the words asked for those rows, and the
 * others cost tokens to read past (set W: "kettle order" showed all eight orders to name two).
 * `all` is the listing's own address, said for the rest.
 */
export function rowsShownOnly(
  leftover: string,
  page: string,
  all: string,
): { line: string; markdown: string } | null {
  if (!leftover) return null;
  const rows = tableRows(page);
  const showing = new Set(rowsShowing(leftover, page));
  if (!showing.size) return null;
  const lines = page.split("\n");
  const [from, to] = firstTable(lines);
  let row = 0;
  // Only the listing's own table: the tables below it (a cart's shipping costs, its coupons) are
  // no rows of it (set AU: "express" matched a shipping row and emptied the cart's items).
  const markdown = lines
    .filter((_line, i) => {
      if (i < from + 2 || i >= to) return true;
      const id = rows[row++]?.id ?? "";
      return showing.has(id);
    })
    .join("\n");
  return {
    line: `Shown: the ${showing.size} of the ${rows.length} rows whose cells hold ${code(heldWords(leftover, rows, showing.size))} (the listing has no filter for it; every row: ${code(all)}).`,
    markdown,
  };
}

/**
 * The words of `leftover` some row holds, as spelt: the ones the rows shown were picked by (set AR:
 * "rows whose cells hold `spent kettle altogether`" named two words no cell holds).
 */
function heldWords(leftover: string, rows: ReadonlyArray<{ stems: Set<string> }>, shown: number): string {
  const held = [...stemmedWords(leftover)].filter(([, s]) => rows.some((r) => r.stems.has(s)));
  // One word that alone picks the same rows is the one said (set AV: "rows whose cells hold
  // `headphones carrier`" left the model unsure whether a headphones order with no carrier yet
  // was hidden, and it read every order to be sure).
  const alone = held.find(([, s]) => rows.filter((r) => r.stems.has(s)).length === shown);
  if (alone && held.length > 1) return alone[0];
  return held.map(([w]) => w).join(" ") || leftover;
}

/** The ids of the table rows whose cells hold every word of `leftover` that some row holds. */
function rowsShowing(leftover: string, page: string): string[] {
  const rows = tableRows(page);
  const asked = [...stemmedWords(leftover).values()].filter((s) => rows.some((r) => r.stems.has(s)));
  if (!asked.length) return [];
  const showing = rows.filter((r) => asked.every((s) => r.stems.has(s)));
  return showing.length > ROWS_NAMED || showing.length === rows.length ? [] : showing.map((r) => r.id);
}

/**
 * The ids of the table rows whose cells hold every word of `leftover`, not only those some row
 * holds: a row found by all the words (one-record.ts), by the same stems as rowsShowing.
 */
export function rowsHoldingEvery(leftover: string, page: string): string[] {
  const asked = [...stemmedWords(leftover).values()];
  if (!asked.length) return [];
  return tableRows(page)
    .filter((r) => asked.every((s) => r.stems.has(s)))
    .map((r) => r.id);
}

/**
 * Where a page's first table stands: [its header line, the line after its last row), or an empty
 * range. A table's header is the line above its separator (`| --- |`).
 */
function firstTable(lines: readonly string[]): [number, number] {
  const separator = lines.findIndex(
    (line, i) => i > 0 && /^\|\s*:?-{3}/.test(line) && !!lines[i - 1]?.startsWith("|"),
  );
  if (separator < 0) return [0, 0];
  let end = separator + 1;
  while (end < lines.length && lines[end]?.startsWith("|")) end++;
  return [separator - 1, end];
}

/** The rows of a page's first table (the listing's own), each by its id and its cells' stems. */
function tableRows(page: string): Array<{ id: string; stems: Set<string> }> {
  const lines = page.split("\n");
  const [from, to] = firstTable(lines);
  return lines.slice(from + 2, to).map((line) => ({
    id: (line.split("|")[1] ?? "")
      .trim()
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replaceAll("`", ""),
    stems: new Set(stemmedWords(line).values()),
  }));
}
