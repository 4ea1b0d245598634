/**
 * One cell of a CSV export, safe in a spreadsheet whatever its list separator. Every cell is
 * quoted, so a `;` or `,` inside agent text never starts a new cell; and anything a spreadsheet
 * could read as the start of a formula — `= + - @`, tab or CR at the start of the cell, or right
 * after a `,` `;` or tab a reader with another separator would split at — gets a `'` before it,
 * so it is read as text.
 */
export function csvCell(value: unknown): string {
  const text =
    value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  const safe = text.replace(/(^|[,;\t])(?=[=+\-@\t\r])/g, "$1'");
  return `"${safe.replaceAll('"', '""')}"`;
}
