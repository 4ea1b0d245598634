import type { DecisionSummary, SummaryEntry, SummaryValue } from "../sdk/decision-summary";
import type { Schema } from "./api-operations";
import type { OperationPlan } from "./plan-operations";
import type { OperationField } from "./schema-form-fields";

type Values = Record<string, unknown>;

const GROUPS = [
  { where: "path", key: "path_values", label: "Path values" },
  { where: "query", key: "query", label: "Query" },
  { where: "header", key: "headers", label: "Headers" },
  { where: "body", key: "body", label: "Body" },
] as const;

// "The unit price in US dollars." → "in US dollars"; "Amount in cents" → "in cents".
const UNIT_PHRASE = /\b(in|as)\s+([A-Za-z][A-Za-z .'-]{0,40}?)\s*(?=[.,;:()]|$)/g;

/**
 * The unit a document gives a number in its description, in its own words, when it gives exactly
 * one: "Amount in USD. Stored and charged as cents." names two, and which one the API charges is
 * not ours to guess — then no unit is drawn, and the description (always shown beside the value,
 * see `describedAs`) says it in the document's words.
 */
export function documentedUnit(schema: Schema): string | undefined {
  const phrases = new Set(
    [...(schema.description ?? schema.title ?? "").matchAll(UNIT_PHRASE)].map((m) =>
      `${m[1]} ${m[2]}`.slice(0, 60),
    ),
  );
  return phrases.size === 1 ? [...phrases][0] : undefined;
}

/** A value's documented description, bounded, shown beside it whatever unit was drawn from it. */
function describedAs(
  schema: Schema,
  description = schema.description ?? schema.title ?? "",
): { note?: string } {
  const note = description.replace(/\s+/g, " ").trim();
  return note ? { note: note.length > 200 ? `${note.slice(0, 199)}…` : note } : {};
}

function propertiesOf(schema: Schema): Record<string, Schema> {
  const out: Record<string, Schema> = { ...(schema.properties ?? {}) };
  for (const part of schema.allOf ?? []) Object.assign(out, propertiesOf(part ?? {}));
  return out;
}

/**
 * A value as it is sent, typed by its schema: a number the document gives a unit or a format
 * is a decimal kept in the very text the JSON body carries (`499.99`, "in US dollars"); any other
 * number is a number; objects show every key the value has, each by its own schema.
 */
export function sentPart(schema: Schema, value: unknown, depth = 0): SummaryValue {
  if (value === null || value === undefined) return { kind: "none" };
  if (typeof value === "number") {
    const unit = documentedUnit(schema);
    const format = schema.format?.slice(0, 60);
    return unit || format
      ? {
          kind: "decimal",
          value: JSON.stringify(value),
          ...(unit ? { unit } : {}),
          ...(format ? { format } : {}),
        }
      : { kind: "number", value };
  }
  if (typeof value === "string")
    return {
      kind: "text",
      value,
      quoted: true,
      ...(schema.format ? { format: schema.format.slice(0, 60) } : {}),
    };
  if (typeof value === "boolean") return { kind: "boolean", value };
  if (depth > 12) return { kind: "text", value: JSON.stringify(value), quoted: true };
  if (Array.isArray(value))
    return { kind: "list", items: value.map((v) => sentPart((schema.items ?? {}) as Schema, v, depth + 1)) };
  const props = propertiesOf(schema);
  const extra = typeof schema.additionalProperties === "object" ? schema.additionalProperties : {};
  return {
    kind: "object",
    entries: Object.entries(value as Values).map(([key, v]) => ({
      key,
      label: key,
      value: sentPart(Object.hasOwn(props, key) ? (props[key] as Schema) : extra, v, depth + 1),
      ...(Object.hasOwn(props, key) ? describedAs(props[key] as Schema) : {}),
    })),
  };
}

/** The value a typed part stands for: the inverse of sentPart, so what is sent is what was shown. */
export function valueOfPart(part: SummaryValue): unknown {
  switch (part.kind) {
    case "decimal":
      return Number(part.value);
    case "number":
    case "quantity":
    case "text":
    case "boolean":
      return part.value;
    case "money":
      return part.minor;
    case "none":
      return null;
    case "address":
      return part.lines.join(", ");
    case "list":
      return part.items.map(valueOfPart);
    case "object":
      return Object.fromEntries(part.entries.map((e) => [e.key, valueOfPart(e.value)]));
  }
}

const sent = (value: unknown) => value !== undefined && value !== "";

/**
 * An imported write's summary: the request itself — method, the path with its values, and
 * every value that will be sent, grouped as sent (path, query, headers, body), under the
 * document's own names, nested values in full.
 */
export function requestSummary(
  plan: OperationPlan,
  system: string,
  path: string,
  values: Values,
): DecisionSummary {
  const fields = plan.fields ?? [];
  const method = plan.op.method.toUpperCase();
  const entries: SummaryEntry[] = [
    { key: "method", label: "Method", value: { kind: "text", value: method } },
    { key: "path", label: "Path", value: { kind: "text", value: path } },
  ];
  for (const group of GROUPS) {
    const inGroup = fields.filter((f) => f.where === group.where && sent(values[f.name]));
    if (!inGroup.length) continue;
    const whole = inGroup.find((f) => f.whole);
    entries.push({
      key: group.key,
      label: group.label,
      value: whole
        ? sentPart(whole.schema, values[whole.name])
        : {
            kind: "object",
            entries: inGroup.map((f) => ({
              key: f.param,
              label: f.param,
              value: sentPart(f.schema, values[f.name]),
              ...describedAs(f.schema, f.description),
            })),
          },
    });
  }
  return { title: `${method} ${path} on ${system}`, entries };
}

/** The form's values an approved request summary holds: the only values its request is built from. */
export function requestValues(summary: DecisionSummary, fields: OperationField[]): Values {
  const out: Values = {};
  for (const group of GROUPS) {
    const entry = summary.entries.find((e) => e.key === group.key);
    if (!entry) continue;
    const whole = fields.find((f) => f.where === group.where && f.whole);
    if (whole) {
      out[whole.name] = valueOfPart(entry.value);
      continue;
    }
    if (entry.value.kind !== "object") continue;
    for (const e of entry.value.entries) {
      const field = fields.find((f) => f.where === group.where && f.param === e.key);
      if (field) out[field.name] = valueOfPart(e.value);
    }
  }
  return out;
}
