/** The cells of the markdown table row whose first cell is `id`, by the table's header. */
export function row(markdown: string, id: string): Record<string, string> {
  const lines = markdown.split("\n").filter((l) => l.startsWith("| "));
  const head = (lines[0] ?? "").split(" | ").map((c) => c.replace(/^\| |\s\|$/g, "").trim());
  const line = lines.find((l) => l.startsWith(`| \`${id}\` |`)) ?? "";
  const cells = line.split(" | ").map((c) => c.replace(/^\| |\s\|$/g, "").trim());
  return Object.fromEntries(head.map((h, i) => [h, cells[i] ?? ""]));
}

/** The ids of a markdown table's rows (each row's first cell, as `id`), in order. */
export function rowIds(markdown: string): string[] {
  return [...markdown.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1] ?? "");
}
