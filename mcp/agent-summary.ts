import { renderSummary, type SummaryRow } from "@/server/connectors/sdk/render-decision-summary";

const rowText = (r: SummaryRow) => `${r.label}: ${r.text}${r.note ? ` (${r.note})` : ""}`;

/**
 * The rows of a summary as the agent reads them: the same rows, labels and values as the person's
 * screen (one renderer), said in fewer lines. Rows the capability declares internal (a record's
 * version stamp, sent for a concurrency check and decided by nobody) stay on every person's
 * surface and are left out here: the agent cannot act on them. An entry whose parts are all plain
 * values (a line item, an item) is one line, its parts by label, instead of one line each.
 */
function compactRows(rows: SummaryRow[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as SummaryRow;
    const children: SummaryRow[] = [];
    for (let j = i + 1; j < rows.length && (rows[j] as SummaryRow).depth > row.depth; j++)
      children.push(rows[j] as SummaryRow);
    if (row.internal) {
      i += children.length;
      continue;
    }
    const indent = "  ".repeat(row.depth);
    const leaves = children.filter((c) => !c.internal);
    if (!row.text && leaves.length && leaves.every((c) => c.depth === row.depth + 1 && c.text)) {
      out.push(
        `${indent}- ${row.label}: ${leaves.map(rowText).join(" · ")}${row.note ? ` (${row.note})` : ""}`,
      );
      i += children.length;
      continue;
    }
    out.push(`${indent}- ${row.label}:${row.text ? ` ${row.text}` : ""}${row.note ? ` (${row.note})` : ""}`);
  }
  return out;
}

/**
 * The summary a person approves, as the agent's text says it where the person decides: the
 * decision (or title) first, then the title and the headline amount only where they add words,
 * then every row (see compactRows), then the facts shown for context. The person's screen and
 * email draw every line of `summaryText`; what is left out here is said there, never changed.
 */
export function agentSummaryLines(summary: unknown): string[] {
  const r = renderSummary(summary, "action");
  const rows = compactRows(r.rows);
  const said = [r.sentence ?? "", ...r.rows.map((x) => x.text)];
  const lines = [`summary: ${r.sentence ?? r.title}`];
  // "Exchange" under "Exchange Logo Tee (M) for Logo Tee (L)" and "What: Exchange" says nothing new.
  if (r.sentence && r.title !== r.sentence && !said.some((t) => t.includes(r.title)))
    lines.push(`  ${r.title}`);
  if (r.headline && !(r.sentence ?? "").includes(r.headline.text))
    lines.push(`  ${r.headline.label}: ${r.headline.text}`);
  lines.push(...rows.map((l) => `  ${l}`));
  if (r.now.length)
    lines.push("  Now (for context, not approved):", ...compactRows(r.now).map((l) => `  ${l}`));
  return lines;
}
