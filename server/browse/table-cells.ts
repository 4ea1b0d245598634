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

/**
 * The page with only the `kept` rows of its first table (`_(none)_` where none is), the footer
 * counting them ("Page 1 · 3 shown · 8 in all"), and its items without the rows left out: what
 * a filter applied to the rows read (amounts, time windows) shows. One cut of several (`step`)
 * keeps the table even empty and leaves the footer to the caller, who counts every cut on it.
 */
export function withKeptRows<P extends { markdown: string; items?: Array<{ id: string }> }>(
  page: P,
  table: { head: number; end: number },
  kept: readonly string[],
  step = false,
): P & { rows: number } {
  const lines = page.markdown.split("\n");
  const body = lines.slice(table.head + 2, table.end);
  const goneIds = new Set(body.filter((l) => !kept.includes(l)).map((l) => cellValue(cells(l)[0] ?? "")));
  const cut = [
    ...lines.slice(0, table.head),
    ...(kept.length || step ? [...lines.slice(table.head, table.head + 2), ...kept] : ["_(none)_"]),
    ...lines.slice(table.end),
  ].join("\n");
  const markdown = step
    ? cut
    : cut
        .replace(
          /^Page (\d+) · (?:\d+ shown · )?(\d+) in all/m,
          (_all, n: string, total: string) => `Page ${n} · ${kept.length} shown · ${total} in all`,
        )
        // A footer without a total (an imported listing's "Page 1 · 8 shown") counts the rows kept too.
        .replace(/^Page (\d+) · \d+ shown$/m, (_all, n: string) => `Page ${n} · ${kept.length} shown`);
  return {
    ...page,
    markdown,
    rows: kept.length,
    ...(page.items ? { items: page.items.filter((i) => !goneIds.has(i.id)) } : {}),
  };
}
