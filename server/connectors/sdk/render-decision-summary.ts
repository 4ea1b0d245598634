import {
  type DecisionSummary,
  plainPart,
  SHOWN_KEY,
  type SummaryEntry,
  type SummaryValue,
  type SumTerm,
  shownSummary,
} from "./decision-summary";
import { visibleText } from "./visible-text";

/**
 * The one renderer of a decision summary. Every surface — the console's confirm page, the MCP
 * App, the approver's email (text and HTML) and the agent's text — draws the same rows from
 * `renderSummary`, so they say the same words; every value and label passes `visibleText` here,
 * once, so a bidi override or a zero-width space is shown as `<U+202E>` on all of them alike.
 */

/** One line of the summary: a label and its value's text, at a nesting depth (0 = top). */
export type SummaryRow = {
  /** The path of keys to it (`body.items.0.unit_price`): what the change list compares. */
  path: string;
  /** The top-level key it belongs to. */
  top: string;
  label: string;
  /** The value's text; empty for a row that only heads nested rows (an object, a list). */
  text: string;
  depth: number;
  /** The kind of value it shows (money, quantity, text…; a list or an object heads rows). */
  kind: SummaryValue["kind"];
  note?: string;
  /** Declared internal (see SummaryEntry): the agent's text leaves it out, every screen shows it. */
  internal?: boolean;
};

export type RenderedSummary = {
  title: string;
  /** "Pay $55.00 from Store credit"; null when the capability names no decision. */
  sentence: string | null;
  headline: { label: string; text: string } | null;
  rows: SummaryRow[];
  /** Context facts (a balance before and after): shown, not approved. */
  now: SummaryRow[];
};

/**
 * One formatter per currency code: building an Intl.NumberFormat costs ~0.1 ms, more than the
 * rest of a record's page (a get_context spent 5% of its CPU here). Codes are three letters, so
 * the cache is bounded.
 */
const moneyFormats = new Map<string, { format: Intl.NumberFormat; digits: number }>();

function moneyFormat(code: string) {
  let found = moneyFormats.get(code);
  if (!found) {
    const format = new Intl.NumberFormat("en-US", { style: "currency", currency: code });
    found = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 };
    moneyFormats.set(code, found);
  }
  return found;
}

/**
 * Amounts already written, by currency and minor units: Intl's format itself costs ~10 µs, and a
 * record's page shows the same few amounts on every call (a get_context spent 2% of its CPU
 * formatting). Cleared whole past its bound.
 */
const formatted = new Map<string, string>();
const MAX_FORMATTED = 5000;

/** Integer minor units in their currency: `formatMoney(55000, "USD")` → `$550.00`. */
export function formatMoney(minor: number, currency = "USD"): string {
  const key = `${currency}\u0000${minor}`;
  const known = formatted.get(key);
  if (known !== undefined) return known;
  const { format, digits } = moneyFormat(/^[A-Z]{3}$/.test(currency) ? currency : "USD");
  const text = format.format(minor / 10 ** digits);
  if (formatted.size >= MAX_FORMATTED) formatted.clear();
  formatted.set(key, text);
  return text;
}

const show = (text: string) => visibleText(text);

/**
 * A sum on one line: "items $36.00 + shipping $5.00 − coupon SAVE5 $5.00 = $36.00". Terms that do
 * not add up to the total say so rather than being shown as if they did.
 */
export function sumText(terms: SumTerm[], total: number, currency = "USD"): string {
  const parts = terms.map((t, i) => {
    const amount = `${show(t.label)} ${formatMoney(Math.abs(t.minor), currency)}`;
    return i === 0 ? `${t.minor < 0 ? "− " : ""}${amount}` : `${t.minor < 0 ? "−" : "+"} ${amount}`;
  });
  const added = terms.reduce((s, t) => s + t.minor, 0);
  return `${parts.join(" ")} = ${formatMoney(total, currency)}${
    added === total ? "" : ` (the terms add up to ${formatMoney(added, currency)})`
  }`;
}

/** A scalar value's text; null for a value shown as nested rows (an object, a list with objects). */
function scalarText(value: SummaryValue): string | null {
  switch (value.kind) {
    case "money":
      return formatMoney(value.minor, value.currency);
    case "decimal": {
      const about = [value.unit, value.format ? `format ${value.format}` : ""].filter(Boolean).join("; ");
      return `${show(value.value)}${about ? ` (${show(about)})` : ""}`;
    }
    case "number":
      return JSON.stringify(value.value) ?? String(value.value);
    case "quantity":
      return `${value.value}${value.unit ? ` ${show(value.unit)}` : ""}`;
    case "address":
      return value.lines.map(show).join(", ");
    case "text":
      if (value.quoted)
        return `${show(JSON.stringify(value.value))}${value.format ? ` (format ${show(value.format)})` : ""}`;
      return value.value === "" ? '""' : show(value.value);
    case "boolean":
      return value.value ? "yes" : "no";
    case "sum":
      return sumText(value.terms, value.total, value.currency);
    case "none":
      return "none";
    case "list":
      if (value.items.length === 0) return "(empty list)";
      // Scalars on one line; anything with a list or an object inside as rows of their own, so
      // [[1, 2], [3]] and [1, 2, 3] never read the same.
      return value.items.every((i) => i.kind !== "list" && i.kind !== "object")
        ? value.items.map((i) => scalarText(i)).join(", ")
        : null;
    case "object":
      return value.entries.length === 0 ? "(empty object)" : null;
  }
}

/**
 * The most rows a summary may have. The renderer draws every row it is given — it never cuts a
 * summary short, since a value left off the screen could still be sent — so what builds a summary
 * from an agent's values refuses one with more (see `summaryRowCount`) before anyone approves it.
 */
export const SUMMARY_ROW_LIMIT = 2000;

function rowsOf(entry: SummaryEntry, path: string, top: string, depth: number, out: SummaryRow[]): void {
  const text = scalarText(entry.value);
  out.push({
    path,
    top,
    label: show(entry.label),
    text: text ?? "",
    depth,
    kind: entry.value.kind,
    ...(entry.note ? { note: show(entry.note) } : {}),
    ...(entry.internal ? { internal: true } : {}),
  });
  if (text !== null) return;
  if (entry.value.kind === "object")
    for (const e of entry.value.entries) rowsOf(e, `${path}.${show(e.key)}`, top, depth + 1, out);
  else if (entry.value.kind === "list")
    entry.value.items.forEach((item, i) => {
      rowsOf({ key: String(i), label: `#${i + 1}`, value: item }, `${path}.${i}`, top, depth + 1, out);
    });
}

function rowsOfEntries(entries: SummaryEntry[]): SummaryRow[] {
  const out: SummaryRow[] = [];
  for (const e of entries) rowsOf(e, show(e.key), show(e.key), 0, out);
  return out;
}

function sentenceOf(s: DecisionSummary): string | null {
  const d = s.decision;
  if (!d) return null;
  const parts = [d.verb];
  if (d.object) parts.push(d.object);
  if (d.amount) parts.push(formatMoney(d.amount.minor, d.amount.currency));
  if (d.from) parts.push(`from ${d.from}`);
  if (d.to) parts.push(`to ${d.to}`);
  return show(parts.join(" "));
}

/**
 * A stored summary's typed parts, or — for a summary that has none — every key of it shown
 * plainly (numbers as numbers, objects with every key), never read by its keys' names.
 */
export function typedSummary(summary: unknown, fallbackTitle: string): DecisionSummary {
  const shown = shownSummary(summary);
  if (shown) return shown;
  const record =
    summary && typeof summary === "object" && !Array.isArray(summary)
      ? (summary as Record<string, unknown>)
      : { value: summary };
  const toEntries = (r: Record<string, unknown>) =>
    Object.entries(r)
      .filter(([k, v]) => k !== SHOWN_KEY && v !== undefined)
      .map(([key, v]) => ({ key, label: key, value: plainPart(v) }));
  const { now, ...rest } = record;
  return {
    title: fallbackTitle,
    entries: toEntries(rest),
    ...(now && typeof now === "object" && !Array.isArray(now)
      ? { now: toEntries(now as Record<string, unknown>) }
      : {}),
  };
}

/** How many rows a typed summary draws (its entries, nested rows included). */
export function summaryRowCount(summary: DecisionSummary): number {
  return rowsOfEntries(summary.entries).length;
}

/** The rows every surface draws. */
export function renderSummary(summary: unknown, fallbackTitle: string): RenderedSummary {
  const s = typedSummary(summary, fallbackTitle);
  const headText = s.headline ? scalarText(s.headline.value) : null;
  return {
    title: show(s.title),
    sentence: sentenceOf(s),
    headline: s.headline && headText !== null ? { label: show(s.headline.label), text: headText } : null,
    rows: rowsOfEntries(s.entries),
    now: rowsOfEntries(s.now ?? []),
  };
}

function rowLine(r: SummaryRow): string {
  return `${"  ".repeat(r.depth)}- ${r.label}:${r.text ? ` ${r.text}` : ""}${r.note ? ` (${r.note})` : ""}`;
}

/**
 * The summary as plain text lines (the approver's email, the agent's text): the sentence or
 * title, the headline, then one line per row, nested rows indented.
 */
export function summaryText(r: RenderedSummary): string {
  const lines = [r.sentence ?? r.title];
  if (r.sentence && r.title !== r.sentence) lines.push(r.title);
  if (r.headline) lines.push(`${r.headline.label}: ${r.headline.text}`);
  lines.push(...r.rows.map(rowLine));
  if (r.now.length) lines.push("Now (for context, not approved):", ...r.now.map(rowLine));
  return lines.join("\n");
}

export const escapeHtml = (s: string) =>
  s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");

function rowsHtml(rows: SummaryRow[]): string {
  return rows
    .map(
      (r) =>
        `<tr data-path="${escapeHtml(r.path)}"><th scope="row" style="text-align:left;font-weight:normal;color:#555;padding:2px 12px 2px ${r.depth * 16}px">${escapeHtml(r.label)}</th><td style="padding:2px 0;white-space:pre-wrap">${escapeHtml(r.text)}${r.note ? ` <span style="color:#555">(${escapeHtml(r.note)})</span>` : ""}</td></tr>`,
    )
    .join("");
}

/** The summary as an HTML fragment (the approver's email): the same rows, every value escaped. */
export function summaryHtml(r: RenderedSummary): string {
  const head = `<p style="font-size:18px;font-weight:600;margin:0">${escapeHtml(r.sentence ?? r.title)}</p>`;
  const amount = r.headline
    ? `<p style="margin:6px 0"><span style="color:#555">${escapeHtml(r.headline.label)}</span> <strong>${escapeHtml(r.headline.text)}</strong></p>`
    : "";
  const rows = r.rows.length ? `<table style="border-collapse:collapse">${rowsHtml(r.rows)}</table>` : "";
  const now = r.now.length
    ? `<p style="color:#555;margin:8px 0 0">Now (for context, not approved)</p><table style="border-collapse:collapse">${rowsHtml(r.now)}</table>`
    : "";
  return `${head}${amount}${rows}${now}`;
}
