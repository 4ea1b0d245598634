import { fieldLines } from "../sdk/field-lines";
import { fieldValue, objectCell } from "../sdk/listing-columns";
import { code, escapeText, shownPrefix, table } from "../sdk/markdown";
import { SEGMENT } from "../sdk/parse-browse-uri";
import { secretNameKind } from "../sdk/secret-names";
import { verdictText } from "../sdk/verdict-text";
import { isCreationKey, isTimestamp, whenText } from "../sdk/when-text";
import { OPENAPI_LIMITS } from "./openapi-limits";

type Row = Record<string, unknown>;

const LIST_KEYS = ["data", "items", "results", "records", "entries", "values", "list", "content", "elements"];

function isRow(value: unknown): value is Row {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

/**
 * The records of a listing's answer: the body itself when it is an array, else its first
 * array of objects under a conventional key (`data`, `items`, `results`…, or the resource's
 * own name: `pets`, `invoices`), else its first array of objects anywhere at the top.
 */
export function rowsOf(body: unknown, resource = ""): Row[] | null {
  if (Array.isArray(body)) return body.filter(isRow);
  if (!isRow(body)) return null;
  for (const key of [...LIST_KEYS, resource]) {
    const value = body[key];
    if (Array.isArray(value)) return value.filter(isRow);
  }
  for (const value of Object.values(body))
    if (Array.isArray(value) && value.some(isRow)) return value.filter(isRow);
  // A wrapper one level down: `{ animals: [...], page: {...} }` is found above; `{ result: { items } }` here.
  for (const value of Object.values(body))
    if (isRow(value))
      for (const key of LIST_KEYS)
        if (Array.isArray(value[key])) return (value[key] as unknown[]).filter(isRow);
  return null;
}

/**
 * A field a system answers under a credential's name (`api_key`, `signing_secret`,
 * `client_secret`, `password`): never shown, whatever its value looks like. Only names that hold
 * a credential wherever they appear: a `key` column (an issue key) or a `session` stays.
 */
const credentialField = (key: string) => secretNameKind(key) === "strong";
const HIDDEN = "[redacted]";

/** A value as one table cell or list value: scalars as text (ids as code), lists and objects summarised. */
export function shownValue(key: string, value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (credentialField(key) && typeof value !== "boolean") return HIDDEN;
  if (typeof value === "string") {
    if ((key === "id" || /(_id|Id)$/.test(key)) && SEGMENT.test(value)) return code(value);
    // A time with how long ago it was: a model does not know what "today" is.
    if (isTimestamp(value)) return escapeText(whenText(value));
    return escapeText(shownPrefix(value, 160));
  }
  if (typeof value === "number" || typeof value === "boolean") return escapeText(String(value));
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object"))
      return escapeText(value.slice(0, 8).join(", ") + (value.length > 8 ? `, … (${value.length})` : ""));
    return escapeText(`${value.length} item(s)`);
  }
  const keys = Object.keys(value as object);
  const named = (value as Row).name ?? (value as Row).id ?? (value as Row).title;
  return escapeText(
    typeof named === "string" || typeof named === "number" ? String(named) : `${keys.length} field(s)`,
  );
}

/** Keys that hold a record's state. */
const STATE_KEYS = new Set(["status", "state"]);

/**
 * Columns worth a table: `id` (or the given id key) first, then the item schema's scalar
 * properties in the document's order where the rows have them, then scalar fields common in the rows.
 */
export function columnsOf(rows: Row[], idKey = "id", preferred: string[] = []): string[] {
  const counts = new Map<string, number>();
  for (const row of rows.slice(0, OPENAPI_LIMITS.maxRows))
    for (const [k, v] of Object.entries(row))
      if (v === null || typeof v !== "object") counts.set(k, (counts.get(k) ?? 0) + 1);
  const keys = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
  const first = [idKey, "id", "name", "title"].filter((k) => keys.includes(k));
  const documented = preferred.filter((k) => keys.includes(k));
  const columns = [...new Set([...first, ...documented, ...keys])].slice(0, OPENAPI_LIMITS.maxColumns);
  // When each record was created always has a column (in place of the last): "the oldest",
  // "the newest" and "the one from today" are answered from it, not from every record's page.
  const created = keys.find(
    (k) => isCreationKey(k) && rows.some((r) => isTimestamp(r[k]) || typeof r[k] === "number"),
  );
  if (created && !columns.includes(created))
    columns.splice(Math.min(columns.length, OPENAPI_LIMITS.maxColumns - 1), 1, created);
  // A record's state always has a column too, beside the others: a flag that says no
  // ("exchangeable: false" on a line the system exchanged) carries its reason only beside it.
  const state = keys.find((k) => STATE_KEYS.has(k));
  if (state && !columns.includes(state)) columns.push(state);
  return columns;
}

/** Rows as a table; a column one level down (`payment.method`) or an object one by its parts. */
export function rowsTable(rows: Row[], columns: string[]): string {
  return table(
    columns,
    rows.map((row) => columns.map((c) => objectCell(c, fieldValue(row, c), shownValue))),
  );
}

/**
 * One record as sections: its scalar fields as a list, nested objects as `key: a · b` lines,
 * lists of objects as small tables; cut to the page budget with a note saying so.
 */
export function objectMarkdown(object: Row): string {
  // Empty fields and equal times share a line, a yes/no is a word (issue 23), as on every page.
  const lines = fieldLines();
  const sections: string[] = [];
  for (const [key, value] of Object.entries(object).slice(0, 60)) {
    const label = escapeText(key);
    if (credentialField(key) && value !== null && typeof value === "object") {
      lines.add(label, HIDDEN);
    } else if (Array.isArray(value) && value.some(isRow)) {
      const rows = (value as unknown[]).filter(isRow);
      const shown = rows.slice(0, 5);
      sections.push(
        `### ${label}\n\n${rowsTable(shown, columnsOf(shown))}${rows.length > shown.length ? `\n\n…and ${rows.length - shown.length} more` : ""}`,
      );
    } else if (verdictText(value) !== null) {
      lines.add(label, verdictText(value) as string);
    } else if (isRow(value)) {
      const inner = Object.entries(value)
        .filter(([, v]) => v === null || typeof v !== "object" || Array.isArray(v))
        .slice(0, 8)
        .map(([k, v]) => `${escapeText(k)}: ${shownValue(k, v)}`)
        .join(" · ");
      lines.add(label, inner || "—");
    } else {
      lines.add(label, shownValue(key, value), credentialField(key) ? undefined : value);
    }
  }
  return cut([lines.text(), ...sections].filter(Boolean).join("\n\n"));
}

/** Text cut to the page budget at a line boundary, saying that it was. */
export function cut(markdown: string, max: number = OPENAPI_LIMITS.maxPageChars): string {
  if (markdown.length <= max) return markdown;
  const at = markdown.lastIndexOf("\n", max);
  return `${markdown.slice(0, at > 0 ? at : max)}\n\n_(cut: the rest of this record is not shown)_`;
}
