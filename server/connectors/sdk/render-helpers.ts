import type { BackendOutcome, Row } from "./browse-backend";
import { fieldLines } from "./field-lines";
import { type FieldType, fieldType } from "./field-type";
import { listPointersSaid } from "./list-pointers";
import { objectCell } from "./listing-columns";
import { code, escapeText, type FormField, formBlock, link, money, recordRowLink, table } from "./markdown";
import { SEGMENT } from "./parse-browse-uri";
import { isLabelledValue } from "./reference-labels";
import { rowUriPattern } from "./row-uri-pattern";
import { USER_WORDS } from "./user-words-field";
import { verdictText } from "./verdict-text";
import { isTimestamp, whenText } from "./when-text";

/** Fields whose values are ids of entities that have pages: rendered as links. */
const ID_LINKS: Record<string, (id: string) => string> = {
  order_id: (id) => `shop://order/${id}`,
  product_id: (id) => `shop://product/${id}`,
  ticket_id: (id) => `helpdesk://ticket/${id}`,
  action_id: (id) => `actions://${id}`,
};

export function idLink(field: string, value: unknown): string {
  const to = ID_LINKS[field];
  if (to && typeof value === "string" && SEGMENT.test(value)) return link(value, to(value));
  // Other ids are shown as code: copyable exactly (`addr_alice_home`), whatever they hold.
  if ((field === "id" || field.endsWith("_id")) && typeof value === "string" && SEGMENT.test(value))
    return code(value);
  return escapeText(value);
}

const MONEY_FIELD =
  /(^|_)(price|amount|total|subtotal|discount|balance|refundable|unit_price|shipping_price|shipping_difference|available)$/;

/** A connector's declared money (integer minor units under these keys, one currency). */
export type MoneyOf = { keys: string[]; currency: string };

/** An answer's `money_of`, when it is one. */
export function readMoneyOf(value: unknown): MoneyOf | undefined {
  const m = value as { keys?: unknown; currency?: unknown } | undefined;
  if (!m || !Array.isArray(m.keys) || typeof m.currency !== "string") return undefined;
  return { keys: m.keys.filter((k): k is string => typeof k === "string"), currency: m.currency };
}

/**
 * One value as a cell. Where the page knows the connector's declared money keys (a view's
 * `money_of`), they alone decide which integers are money, as on the action face; without them
 * (lists, forms) the key names above stand in.
 */
export function cell(field: string, value: unknown, moneyOf?: MoneyOf): string {
  // A column one level down (`payment.amount`) is money, a time or an id by its own last name.
  if (field.includes(".")) return cell(field.slice(field.lastIndexOf(".") + 1), value, moneyOf);
  // Another record by its name, its id beside it to send (reference-labels.ts).
  if (isLabelledValue(value)) return `${escapeText(value.label)} (${idLink(field, value.value)})`;
  // An object in a cell by its parts ("method card · amount $48.00"), not "[object Object]".
  if (value && typeof value === "object" && !Array.isArray(value))
    return objectCell(field, value, (k, v) => cell(k, v, moneyOf));
  const isMoney = moneyOf ? moneyOf.keys.includes(field) : MONEY_FIELD.test(field);
  if (isMoney && typeof value === "number" && Number.isInteger(value)) return money(value, moneyOf?.currency);
  // A time with how long ago it was: a model does not know what "today" is.
  if (isTimestamp(value)) return escapeText(whenText(value));
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== "object" || v === null)) return escapeText(value.join(", "));
    return escapeText(`${value.length} item(s)`);
  }
  return idLink(field, value);
}

/**
 * A table of rows, with the given columns (default: the scalar keys of the first row). Rows may
 * be any object type (a connector's own `Account`), read by key here so no caller casts.
 * `firstCellUri`: each row's page. Where every row's page is one address with the first cell in
 * it, the first cells are copyable ids and one line under the table gives that address (see
 * rowUriPattern); the rows' pages are still links of the page. Otherwise each first cell links.
 */
export function rowsTable(
  records: readonly object[],
  columns?: string[],
  firstCellUri?: (index: number) => string,
  moneyOf?: MoneyOf,
): string {
  const rows = records as readonly Row[];
  if (rows.length === 0) return "_(none)_";
  // Every row's keys, the first row's first: a key only some rows carry (a sold-out choice's
  // `possible`) is a column too, or the one fact that tells those rows apart is lost.
  const cols =
    columns ??
    [...new Set(rows.flatMap((row) => Object.keys(row)))]
      .filter((key) =>
        rows.some(
          (row) =>
            row[key] === null || (key in row && (typeof row[key] !== "object" || isLabelledValue(row[key]))),
        ),
      )
      .slice(0, 8);
  const first = cols[0] ?? "";
  const uris = firstCellUri ? rows.map((_, i) => firstCellUri(i)) : [];
  const ids = rows.map((row) => String(row[first] ?? ""));
  const pattern =
    firstCellUri && ids.every((id) => SEGMENT.test(id)) ? rowUriPattern(ids, uris, first) : null;
  if (pattern) for (const uri of uris) recordRowLink(uri);
  const shown = table(
    cols,
    rows.map((row, i) =>
      cols.map((col, c) =>
        c === 0 && firstCellUri
          ? pattern
            ? code(ids[i])
            : link(String(row[col] ?? ""), uris[i] as string)
          : cell(col, row[col], moneyOf),
      ),
    ),
  );
  return pattern ? `${shown}\n\nEach row's page: ${code(pattern)}` : shown;
}

/**
 * Header fields of an object: scalars as a list, arrays of objects as tables beneath; empty
 * fields and equal times share a line (field-lines.ts). `offered`: the capabilities a form linked
 * on the page starts; a plain "yes" for one of them is that link said again, and is left out (a
 * "no", or a yes with a condition, stays).
 */
export function objectSections(
  object: object,
  skip: string[] = [],
  moneyOf?: MoneyOf,
  offered: ReadonlySet<string> = new Set(),
): string {
  const lines = fieldLines();
  const sections: string[] = [];
  const linked = (key: string, value: unknown) => offered.has(key) && verdictText(value) === "yes";
  for (const [key, value] of Object.entries(object)) {
    if (skip.includes(key) || value === undefined || linked(key, value)) continue;
    if (Array.isArray(value) && value.some((v) => v && typeof v === "object")) {
      sections.push(`### ${label(key)}\n\n${rowsTable(value as Row[], undefined, undefined, moneyOf)}`);
    } else if (verdictText(value) !== null) {
      lines.add(label(key), verdictText(value) as string);
    } else if (value && typeof value === "object" && !Array.isArray(value) && !isLabelledValue(value)) {
      const entries = Object.entries(value as Row);
      const unsaid = entries.filter(([k, v]) => !linked(k, v));
      // Every entry a link below already says: nothing left for this line to say.
      if (entries.length && !unsaid.length) continue;
      lines.add(label(key), unsaid.map(([k, v]) => innerPart(k, v, moneyOf)).join(" · ") || "—");
    } else {
      lines.add(label(key), cell(key, value, moneyOf), value);
    }
  }
  return [lines.text(), ...sections].filter(Boolean).join("\n\n");
}

/**
 * One entry of an object inside a page's object, on its line: a value as a cell, an object one
 * level further by its scalars ("shipment: carrier UPS, tracking number 1Z…"), a list by its
 * values or its count. Round 25: a nested object was dropped whole, and the order page lost its
 * shipment's tracking number on every connector's pages alike.
 */
function innerPart(key: string, value: unknown, moneyOf?: MoneyOf): string {
  const scalar = (v: unknown) => v === null || typeof v !== "object";
  if (scalar(value)) return `${label(key)}: ${cell(key, value, moneyOf)}`;
  if (Array.isArray(value))
    return value.every(scalar)
      ? `${label(key)}: ${value.map((v) => cell(key, v, moneyOf)).join(", ") || "—"}`
      : `${label(key)}: ${value.length} ${value.length === 1 ? "entry" : "entries"}`;
  const verdict = verdictText(value);
  if (verdict !== null) return `${label(key)}: ${verdict}`;
  const parts = Object.entries(value as Row)
    .filter(([, v]) => scalar(v))
    .map(([k, v]) => `${label(k)} ${cell(k, v, moneyOf)}`);
  return `${label(key)}: ${parts.join(", ") || "—"}`;
}

export function humanize(key: string): string {
  return key.replace(/_/g, " ");
}

/** A key of data as a label: keys come from the systems below, so they are escaped like values. */
function label(key: string): string {
  return escapeText(humanize(key));
}

/**
 * `next_actions` of an outcome, as a short list (the action face's view of what comes next). A
 * start names its capability's id beside the title (a model sent the title as the id) and who
 * must approve it, so the line is enough to call start_action.
 */
export function nextActionsList(outcome: BackendOutcome): string {
  // Another ask of the user's words is said on its own line with its call (other-asks-lines.ts).
  const next = (outcome.next_actions ?? []).filter((n) => !n.description.startsWith("also asked: "));
  if (next.length === 0) return "_Nothing more to do here._";
  return next.map((n) => `- ${escapeText(n.description)} (${nextStepWords(n)})`).join("\n");
}

type NextStep = NonNullable<BackendOutcome["next_actions"]>[number];

/**
 * One next step's call and who approves it: `` `start_action` `x`; no approval: … ``. Beside a
 * form's line the tool's name is plain (`` start_action `x` ``): a token less on each form.
 */
export function nextStepWords(n: NextStep, tool: "code" | "plain" = "code"): string {
  const capability = typeof n.args?.capability === "string" ? ` ${code(n.args.capability)}` : "";
  const approval = typeof n.approval === "string" ? `; ${escapeText(n.approval)}` : "";
  return `${tool === "code" ? code(n.tool) : escapeText(n.tool)}${capability}${n.requires_user_approval ? ", needs the user's approval" : ""}${approval}`;
}

export function validationErrors(outcome: BackendOutcome): Array<{ field: string; message: string }> {
  const errors = outcome.validation_errors;
  if (!Array.isArray(errors)) return [];
  return errors
    .filter((e): e is Row => !!e && typeof e === "object")
    .map((e) => ({ field: String(e.field ?? ""), message: String(e.message ?? e.code ?? "invalid") }));
}

/**
 * The problems, each by its field; one the page's message already says whole is named, not said
 * again (a refusal's three sentences read twice on one page).
 */
export function problemsList(outcome: BackendOutcome): string {
  const errors = validationErrors(outcome);
  const said = typeof outcome.message === "string" ? outcome.message : "";
  const lines = errors.map(
    (e) =>
      `- **${escapeText(e.field)}:** ${e.message.length > 40 && said.includes(e.message) ? "said above" : escapeText(e.message)}`,
  );
  if (lines.length === 0) lines.push(`- ${escapeText(outcome.message)}`);
  return `### Problems\n\n${lines.join("\n")}`;
}

/**
 * Form fields from an action or capability preview: `inputs` (field, required, description, type)
 * narrowed to `allowed_patch` when present, typed from `patch_schema` when the engine gives one
 * and otherwise from the type each input carries (its capability's schema), current values from
 * `values`/`applied_values`.
 */
export function fieldsFromOutcome(
  outcome: BackendOutcome,
  current: Record<string, unknown> = {},
): FormField[] {
  const inputs = Array.isArray(outcome.inputs) ? (outcome.inputs as Row[]) : [];
  const allowed = Array.isArray(outcome.allowed_patch) ? (outcome.allowed_patch as string[]) : undefined;
  const schema = (outcome.patch_schema as { properties?: Record<string, Row> } | undefined)?.properties ?? {};
  const values = {
    ...((outcome.values as Row | undefined) ?? {}),
    ...current,
  };
  const fields: FormField[] = [];
  const shown = (outcome.options as Row | undefined) ?? {};
  const given = new Set([
    ...(Array.isArray(outcome.applied) ? (outcome.applied as string[]) : []),
    ...Object.keys(values).filter((k) => values[k] !== undefined && values[k] !== null && values[k] !== ""),
  ]);
  for (const input of inputs) {
    const name = String(input.field ?? "");
    if (!name) continue;
    const base = name.replace(/\[\].*$/, "");
    if (allowed && !allowed.includes(name) && !allowed.includes(base)) continue;
    if (fields.some((f) => f.name === base)) continue;
    const prop = schema[base];
    const typed = prop ? fieldType(prop) : inputType(input, name);
    fields.push({
      name: base,
      type: typed.type,
      required: input.required === true,
      description: listPointersSaid(
        String(input.description ?? prop?.description ?? humanize(base)),
        (list) => Object.hasOwn(shown, list),
        given.has(base) ? "set already" : whenListed(input, given),
      ),
      value: values[base],
      options: typed.values?.map((v) => ({ value: v })),
    });
  }
  return fields;
}

/** When a field's list comes: once the fields its step depends on that are not given yet are sent. */
function whenListed(input: Row, given: ReadonlySet<string>): string {
  const after = (Array.isArray(input.depends_on) ? (input.depends_on as string[]) : []).filter(
    (f) => !given.has(f),
  );
  const once = after.length
    ? `once ${after.join(" and ")} ${after.length > 1 ? "are" : "is"} sent`
    : "at its step";
  return `listed ${once}`;
}

/** The type an input carries (the engine's, from the capability's schema); a list for `field[]…`. */
function inputType(input: Row, name: string): FieldType {
  if (typeof input.type === "string")
    return {
      type: input.type,
      values: Array.isArray(input.values) ? input.values.map((v) => String(v)) : undefined,
    };
  return { type: name.includes("[]") ? "array" : "string" };
}

/**
 * Options the server computed (addresses, payment methods, quotes, coupons, teammates…), but the
 * lists in `skip` (said already, as the user's choices, on lines of their own).
 */
export function optionsSections(outcome: BackendOutcome, skip: readonly string[] = []): string {
  const { field_of, order_of, ...options } = (outcome.options as Row | undefined) ?? {};
  // Each list's heading says which field it fills and how it is ordered (not a section of its own).
  const fieldOf = (field_of ?? {}) as Record<string, unknown>;
  const orderOf = (order_of ?? {}) as Record<string, unknown>;
  // The capability's declared money, as the action face reads it (a sum's `shipping` is money).
  const moneyOf = readMoneyOf(outcome.money_of);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(options)) {
    if (skip.includes(key)) continue;
    if (Array.isArray(value)) {
      const about = [fieldOf[key] && `for ${fieldOf[key]}`, orderOf[key]].filter(Boolean).join("; ");
      parts.push(
        `### ${label(key)}${about ? ` (${escapeText(String(about))})` : ""}\n\n${value.every((v) => v && typeof v === "object") ? rowsTable(value as Row[], undefined, undefined, moneyOf) : escapeText(value.join(", "))}`,
      );
    } else if (value && typeof value === "object") {
      parts.push(`### ${label(key)}\n\n${objectSections(value as Row, [], moneyOf)}`);
    } else {
      parts.push(`- **${label(key)}:** ${cell(key, value, moneyOf)}`);
    }
  }
  return parts.join("\n\n");
}

/**
 * The form block. `byWords`: the form takes the user's words, which fill what they name by its
 * name or label (a product, an address, a teammate) — said first, as the shortest way: set AD's
 * models read the checkout form, then searched the catalog twice for the ids the words named.
 */
export function formSection(uri: string, fields: FormField[], byWords = false): string {
  const how = byWords
    ? `Submit with \`submit(uri, fields)\`: \`${USER_WORDS}\` alone (the user's request, verbatim) fills every field it names, by name or label (no ids needed), and the answer asks for the rest; or send the fields you want to set.`
    : "Submit with `submit(uri, fields)`; send only the fields you want to set.";
  return `## Form\n\n${how}\n\n${formBlock(uri, fields)}`;
}
