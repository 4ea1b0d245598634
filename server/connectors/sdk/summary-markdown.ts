import { escapeMarkdown } from "./markdown";
import { renderSummary, type SummaryRow } from "./render-decision-summary";

/** The summary on an agent's markdown page: the same rows, escaped so no value becomes structure. */
export function summaryMarkdown(summary: unknown): string {
  const r = renderSummary(summary, "action");
  const md = (t: string) => escapeMarkdown(t.replace(/\r\n|[\r\n]/g, " "));
  const lines = [`**${md(r.sentence ?? r.title)}**`];
  if (r.headline) lines.push(`- **${md(r.headline.label)}:** ${md(r.headline.text)}`);
  const line = (row: SummaryRow) =>
    `${"  ".repeat(row.depth)}- **${md(row.label)}:**${row.text ? ` ${md(row.text)}` : ""}${row.note ? ` (${md(row.note)})` : ""}`;
  lines.push(...r.rows.map(line));
  if (r.now.length) lines.push("", "Now (for context, not approved):", "", ...r.now.map(line));
  return lines.join("\n");
}
