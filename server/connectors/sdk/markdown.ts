import { recordLink, redactShown } from "./page-scope";
import { parseBrowseUri } from "./parse-browse-uri";
import { formatMoney } from "./render-decision-summary";
import { visibleText } from "./visible-text";

/**
 * Small markdown builders. Pages are text for a model, and much of what they show is data (a
 * ticket subject, an address label) or an echo of what the agent sent: all of it is escaped so
 * that it can never become structure (a link, a table cell, a heading, an image, an autolink),
 * and redacted so that nothing secret-looking is shown back. Links exist only where `link()`
 * made them.
 */

// Line breaks would end a list item or a table row; control and bidi characters hide or reorder text.
const LINE_BREAKS = /\r\n|[\r\n\t\v\f\u0085\u2028\u2029]/g;

/** One line of plain text: line breaks become spaces, invisible characters their visible code point. */
export function oneLine(text: string): string {
  return visibleText(text.replace(LINE_BREAKS, " "));
}

/**
 * Text cut to `max` characters for showing, redacted first: a cut made before redaction could
 * keep the start of a secret that no pattern recognises any more once its end is gone.
 */
export function shownPrefix(text: string, max: number, more = "…"): string {
  const redacted = redactShown(text);
  return redacted.length > max ? `${redacted.slice(0, max)}${more}` : redacted;
}

function plain(value: unknown): string {
  return oneLine(redactShown(typeof value === "object" ? JSON.stringify(value) : String(value)));
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/**
 * What escapeMarkdown may escape: its characters, `&` only before an entity and `:` only before
 * `//` (a page's `name: value` text holds many a `:` that starts nothing).
 */
const MARKDOWN_SIGNIFICANT = /[\\`*[\]()<>|~_]|:\/\/|&#?[A-Za-z0-9]{1,32};/;

/**
 * Escapes every character that could start markdown structure: `\` `` ` `` `*` `[` `]` `(` `)`
 * `<` `>` `|` `~`, `_` except inside a word (`ord_transit` stays copyable: an underscore between
 * letters never emphasises), `&` before an entity, and the `:` of `scheme://` so that no renderer
 * autolinks it.
 */
export function escapeMarkdown(text: string): string {
  // Most data holds none of them (a status, a name, an amount): four scans saved per cell.
  if (!MARKDOWN_SIGNIFICANT.test(text)) return text;
  return text
    .replace(/[\\`*[\]()<>|~]/g, (ch) => `\\${ch}`)
    .replace(/_+/g, (run, offset: number, all: string) =>
      LETTER_OR_DIGIT.test(all[offset - 1] ?? "") && LETTER_OR_DIGIT.test(all[offset + run.length] ?? "")
        ? run
        : run.replace(/_/g, "\\_"),
    )
    .replace(/&(?=#?[A-Za-z0-9]{1,32};)/g, "\\&")
    .replace(/:(?=\/\/)/g, "\\:");
}

/** Data (or an echo) as inert text on one line; `—` for nothing. */
export function escapeText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  return escapeMarkdown(plain(value));
}

/**
 * Data as an inline code span: copyable exactly as it is (ids, URIs, field names), inert
 * whatever it holds. The fence is one backtick longer than the longest run inside, so a backtick
 * in the data cannot close it; `|` is escaped, which a table needs and other text shows as `\|`.
 */
export function code(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  const text = plain(value).replace(/\|/g, "\\|");
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  // A span starting or ending with a backtick (or with a space at both ends) needs a space of
  // padding, which the reader strips again.
  const pad = /^[` ]|[` ]$/.test(text) && text.trim() !== "" ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * A link the route creates: the only way a link gets into a page and into its `links`. The URI
 * must be a browse URI (it is written in canonical form, which never holds spaces, parentheses or
 * angle brackets); anything else, such as a URI built from data that does not parse, or one that
 * would carry something secret-looking, is shown as the label's words without a link.
 */
export function link(label: string, uri: string): string {
  const parsed = parseBrowseUri(uri);
  if (!parsed.ok || redactShown(parsed.value.uri) !== parsed.value.uri) return escapeText(label);
  recordLink(parsed.value.uri);
  return `[${escapeText(label)}](${parsed.value.uri})`;
}

/**
 * A row's page as a link of the page being rendered, where the row is shown by its id beside one
 * address pattern (see rowUriPattern) instead of as a link: the same checks as `link()`.
 */
export function recordRowLink(uri: string): void {
  const parsed = parseBrowseUri(uri);
  if (parsed.ok && redactShown(parsed.value.uri) === parsed.value.uri) recordLink(parsed.value.uri);
}

export function table(headers: string[], rows: string[][]): string {
  if (rows.length === 0) return "_(none)_";
  const head = `| ${headers.map(escapeText).join(" | ")} |`;
  const rule = `| ${headers.map(() => "---").join(" | ")} |`;
  return [head, rule, ...rows.map((row) => `| ${row.join(" | ")} |`)].join("\n");
}

export function fieldList(pairs: Array<[string, unknown]>): string {
  return pairs.map(([label, value]) => `- **${label}:** ${escapeText(value)}`).join("\n");
}

/** Minor units as the action face and the decision summary show them ("$43.00"): one format everywhere. */
export function money(cents: unknown, currency = "USD"): string {
  if (typeof cents !== "number" || !Number.isInteger(cents)) return escapeText(cents);
  return escapeText(formatMoney(cents, currency));
}

export interface FormField {
  name: string;
  /** `string`, `integer`, `boolean`, `enum`, `array<...>`, `object`… shown as written. */
  type: string;
  required: boolean;
  description: string;
  value?: unknown;
  /** Allowed values (enums, server-computed options such as addresses or teammates). */
  options?: Array<{ value: string; label?: string }>;
}

/**
 * The form block of browse mode: the submit URI and each field with its current value and
 * `# required — type — description` (enums list their values), as a fenced YAML-ish block.
 */
export function formBlock(uri: string, fields: FormField[]): string {
  // Inside the fence nothing is markdown; one line per field (JSON values, line breaks removed
  // from the rest) is what keeps data from closing the fence or faking a field.
  const lines = [`uri: ${plain(uri)}`, "fields:"];
  for (const field of fields) {
    const value =
      field.value === undefined || field.value === null ? '""' : plain(JSON.stringify(field.value));
    const parts = [field.required ? "required" : "optional", plain(field.type)];
    if (field.description) parts.push(plain(field.description));
    // Values the description already lists (`low | normal | high`) are not listed twice.
    const listed = field.options?.every((o) =>
      new RegExp(`\\b${escapeRegExp(o.value)}\\b`).test(field.description),
    );
    if (field.options?.length && !listed) {
      parts.push(
        `one of: ${field.options.map((o) => plain(o.label && o.label !== o.value ? `${o.value} (${o.label})` : o.value)).join(", ")}`,
      );
    }
    lines.push(`  ${plain(field.name)}: ${value}  # ${parts.join(" — ")}`);
  }
  return ["```yaml", ...lines, "```"].join("\n");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
