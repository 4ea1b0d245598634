import {
  type RenderedSummary,
  renderSummary,
  type SummaryRow,
} from "@/server/connectors/sdk/render-decision-summary";

/** What a host's message beside the approval link may take: a paragraph, not the whole screen. */
export const APPROVAL_MESSAGE_MAX = 700;

/** A row's own words: "Label: text", with its note. */
const own = (r: SummaryRow) => `${r.label}${r.text ? `: ${r.text}` : ""}${r.note ? ` (${r.note})` : ""}`;

/** An entry of a list (`items.0`): its label is only its position, its rows say what it is. */
const isListEntry = (r: SummaryRow) => /\.\d+$/.test(r.path);

/** The rows from `at` at `depth` and below, as compact text: nested rows in parentheses. */
function compact(rows: SummaryRow[], at: number, depth: number): { parts: string[]; next: number } {
  const parts: string[] = [];
  let i = at;
  while (i < rows.length && (rows[i] as SummaryRow).depth >= depth) {
    const row = rows[i] as SummaryRow;
    const inner = compact(rows, i + 1, depth + 1);
    i = inner.next;
    const nested = inner.parts.join(", ");
    if (isListEntry(row)) parts.push(nested ? `(${nested})` : own(row));
    else if (!nested) parts.push(own(row));
    else parts.push(row.text ? `${own(row)} (${nested})` : `${row.label}: ${nested}`);
  }
  return { parts, next: i };
}

/**
 * The whole change a person is asked to approve, in one bounded paragraph for the message a host
 * shows beside the approval link: the decision's sentence, then every row of the approval
 * screen's summary ("<Label>: <text>; <List label>: (<Label>: <text>, …), (…); …") — the same
 * renderer and money text as the screen, so the model and the person
 * read the same facts. Past `max` characters it is cut after a whole fact and says the screen has
 * the rest; the screen is still what approves.
 */
export function approvalMessage(summary: unknown, actionId: string, max = APPROVAL_MESSAGE_MAX): string {
  const r: RenderedSummary = renderSummary(summary, "action");
  const head = `${r.sentence ?? r.title} (${actionId}).`;
  const end = " Decide in Signpost, then continue.";
  const cut = " …; the rest is on the screen.";
  const parts = compact(r.rows, 0, 0).parts;
  // Without a sentence the headline (the amount) is what the title alone does not say.
  if (!r.sentence && r.headline) parts.unshift(`${r.headline.label}: ${r.headline.text}`);
  const body = parts.join("; ");
  if (head.length + 1 + body.length + 1 + end.length <= max) return `${head}${body ? ` ${body}.` : ""}${end}`;
  // Cut at the last whole fact that fits (a row, or a field of a list entry), never mid-word.
  const room = body.slice(0, Math.max(0, max - head.length - 1 - cut.length - end.length));
  const at = Math.max(room.lastIndexOf("; "), room.lastIndexOf(", "));
  return `${head} ${at > 0 ? room.slice(0, at) : ""}${cut}${end}`;
}

/**
 * What a host shows the person beside the approval link, on every face: the whole change they
 * approve, compactly (the approval screen's summary, every row of it), else the action.
 */
export function approvalPrompt(summary: unknown, actionId: string, version: number): string {
  return summary && typeof summary === "object"
    ? approvalMessage(summary, actionId)
    : `Approve ${actionId} (version ${version}). Decide in Signpost, then continue.`;
}
