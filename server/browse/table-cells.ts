/** A table row's cells, split on unescaped pipes, each trimmed. */
export function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

/** A cell's value as the system holds it: code fences and escapes off, what follows " · " aside. */
export function cellValue(cell: string): string {
  return (cell.split(" · ")[0] ?? "").replace(/`/g, "").replace(/\\(.)/g, "$1").trim();
}

/** The first table of a page: its header line's index, column names, and the body's end (exclusive). */
export function firstTable(lines: readonly string[]): { head: number; names: string[]; end: number } | null {
  const head = lines.findIndex((l, i) => l.startsWith("|") && lines[i + 1]?.startsWith("| ---"));
  if (head < 0) return null;
  let end = head + 2;
  while (end < lines.length && lines[end]?.startsWith("|")) end++;
  return { head, names: cells(lines[head] ?? ""), end };
}
