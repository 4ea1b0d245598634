/**
 * One cell of a CSV export, safe in a spreadsheet whatever its list separator. Every cell is
 * quoted, so a `;` or `,` inside agent text never starts a new cell; and anything a spreadsheet
 * could read as the start of a formula — `= + - @` (after any blanks: ` =1+1` is one too), tab
 * or a line break at the start of the cell, right after a `,` `;` `|` or tab a reader with
 * another separator would split at, or after a line break (a reader that splits rows at it sees
 * a new cell there) — gets a `'` before it, so it is read as text.
 */
export function csvCell(value: unknown): string {
  const text =
    value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  const safe = text.replace(/(^|\r\n|[,;|\t\r\n\u2028\u2029])(?=[^\S\r\n]*[=+\-@]|[\t\r\n])/g, "$1'");
  return `"${safe.replaceAll('"', '""')}"`;
}
