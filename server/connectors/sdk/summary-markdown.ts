import { escapeMarkdown } from "./markdown";
import { renderSummary, type SummaryRow } from "./render-decision-summary";

/**
 * The summary on an agent's markdown page: the same rows, escaped so no value becomes structure.
 * `brief`: its sentence and its values two levels deep (an imported request's body values), and
 * each entry of a list on one short line (see entryLine), for the answer that leaves it with the
 * person: their approval screen shows every part; the agent needs what to tell them, down to
 * which items they approve. `context`: the summary's context lines (what the cart comes to
 * after), said while the change may still happen.
 */
export function summaryMarkdown(summary: unknown, brief = false, context = true): string {
  const r = renderSummary(summary, "action");
  const md = (t: string) => escapeMarkdown(t.replace(/\r\n|[\r\n]/g, " "));
  const lines = [`**${md(r.sentence ?? r.title)}**`];
  // In brief, an amount the sentence already says is not said again ("Pay $48.00 …": "Total: $48.00").
  if (r.headline && !(brief && (r.sentence ?? "").includes(r.headline.text)))
    lines.push(`- **${md(r.headline.label)}:** ${md(r.headline.text)}`);
  // An entry said in its own words needs no "#1" before them.
  const line = (row: SummaryRow) => {
    const head = brief && row.text && isListEntry(row) ? "" : `**${md(row.label)}:**`;
    const said = [head, row.text ? md(row.text) : ""].filter(Boolean).join(" ");
    return `${"  ".repeat(row.depth)}- ${said}${row.note ? ` (${md(row.note)})` : ""}`;
  };
  // Declared internal (a record's version stamp): sent, decided by nobody, left out of agent text.
  const own = r.rows.filter((row) => !row.internal);
  const rows = brief ? briefRows(own) : own;
  lines.push(...rows.map(line));
  // The context stays in brief too: what the cart or the balance comes to after is often what the
  // user asked (set CO: "… and tell me what the cart comes to" read the cart again to learn it).
  // Not once the action ended: a cancelled change's "after" never happened (review 66).
  if (r.now.length && context) lines.push("", "Now (for context, not approved):", "", ...r.now.map(line));
  return lines.join("\n");
}

/** An entry of a list (`items.0`): its label is only its position, its parts say what it is. */
const isListEntry = (r: SummaryRow) => r.kind === "object" && /\.\d+$/.test(r.path);

/**
 * A list entry whose parts are all values, said in a few words by their kinds (never by key
 * names, so any capability's list reads so): what it is called (its last text part; parts before
 * it are ids), how many (its quantities, "×2") and what it costs (its last money part: a line's
 * total after its unit price) — "Widget ×2 · Line total: $36.00". An entry of none of these
 * keeps its first parts as they are. Null for an entry with a nested list or object.
 */
function entryLine(parts: readonly SummaryRow[]): string | null {
  if (!parts.length || parts.some((p) => p.kind === "object" || p.kind === "list")) return null;
  const shown = parts.filter((p) => !p.internal && p.text);
  const name = shown.filter((p) => p.kind === "text").at(-1);
  const counts = shown.filter((p) => p.kind === "quantity").map((p) => `×${p.text}`);
  const cost = shown.filter((p) => p.kind === "money").at(-1);
  const said = [[name?.text, ...counts].filter(Boolean).join(" "), cost ? `${cost.label}: ${cost.text}` : ""];
  const line = said.filter(Boolean).join(" · ");
  return (
    line ||
    shown
      .slice(0, 3)
      .map((p) => `${p.label}: ${p.text}`)
      .join(" · ") ||
    null
  );
}

/**
 * Rows at depth 0 and 1, and each list entry down to depth 2 as one row of its own words (see
 * entryLine); a heading row (no text of its own) only where a kept row is under it.
 */
function briefRows(rows: readonly SummaryRow[]): SummaryRow[] {
  const out: SummaryRow[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as SummaryRow;
    if (row.depth > 2) continue;
    if (isListEntry(row)) {
      const parts: SummaryRow[] = [];
      for (let j = i + 1; j < rows.length && (rows[j] as SummaryRow).depth > row.depth; j++)
        parts.push(rows[j] as SummaryRow);
      const line = entryLine(parts);
      if (line !== null) {
        out.push({ ...row, text: line });
        i += parts.length;
        continue;
      }
    }
    if (row.depth <= 1) out.push(row);
  }
  // From the end, so a heading sees which of its rows were kept.
  const kept: SummaryRow[] = [];
  for (const row of out.reverse()) if (row.text || (kept[0]?.depth ?? 0) > row.depth) kept.unshift(row);
  return kept;
}
