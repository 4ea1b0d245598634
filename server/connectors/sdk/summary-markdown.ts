import { escapeMarkdown } from "./markdown";
import { renderSummary, type SummaryRow } from "./render-decision-summary";

/**
 * The summary on an agent's markdown page: the same rows, escaped so no value becomes structure.
 * `brief`: its sentence and its values two levels deep (an imported request's body values, not
 * each line item's parts), for the answer that leaves it with the person: their approval screen
 * shows every line; the agent needs what to tell them.
 */
export function summaryMarkdown(summary: unknown, brief = false): string {
  const r = renderSummary(summary, "action");
  const md = (t: string) => escapeMarkdown(t.replace(/\r\n|[\r\n]/g, " "));
  const lines = [`**${md(r.sentence ?? r.title)}**`];
  if (r.headline) lines.push(`- **${md(r.headline.label)}:** ${md(r.headline.text)}`);
  const line = (row: SummaryRow) =>
    `${"  ".repeat(row.depth)}- **${md(row.label)}:**${row.text ? ` ${md(row.text)}` : ""}${row.note ? ` (${md(row.note)})` : ""}`;
  const rows = brief ? briefRows(r.rows) : r.rows;
  lines.push(...rows.map(line));
  if (brief) return lines.join("\n");
  if (r.now.length) lines.push("", "Now (for context, not approved):", "", ...r.now.map(line));
  return lines.join("\n");
}

/** Rows at depth 0 and 1; a heading row (no text of its own) only where a kept row is under it. */
function briefRows(rows: readonly SummaryRow[]): SummaryRow[] {
  const out: SummaryRow[] = [];
  // From the end, so a heading sees which of its rows were kept.
  for (const row of [...rows].reverse()) {
    if (row.depth > 1) continue;
    if (row.text || (out[0]?.depth ?? 0) > row.depth) out.unshift(row);
  }
  return out;
}
