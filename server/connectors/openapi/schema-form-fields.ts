// stays-whole: one field model of a document's schemas: derived, rendered, checked and coerced by the same
// rules.
import { closestField } from "../sdk/closest-field";
import { fieldType } from "../sdk/field-type";
import type { FormField } from "../sdk/markdown";
import type { ValidationError } from "../sdk/outcome";
import type { ApiOperation, ApiParameter, Schema } from "./api-operations";
import { OPENAPI_LIMITS } from "./openapi-limits";

/** One input of a write form: a path or query parameter, or a top-level body property. */
export interface OperationField {
  /** The form's name for it (see formFieldName): what `submit` takes. */
  name: string;
  /** The document's own name for it (`X-Api-Version`, `objectName`): what the API is sent. */
  param: string;
  where: "path" | "query" | "header" | "body";
  required: boolean;
  schema: Schema;
  description: string;
  example?: unknown;
  /** The field is the whole body (a body that is not an object with properties). */
  whole?: boolean;
}

/**
 * The one rule for a form field's name: the document's name in snake case, as the `submit` tool
 * takes names (`^[a-z][a-z0-9_]{0,63}$`). Humps and every other character become `_`
 * (`objectName` → `object_name`, `X-ListenAPI-Key` → `x_listen_api_key`, `api-version` →
 * `api_version`, `$filter` → `filter`), a name that starts with a digit gets `f_`, and a name
 * taken already by an earlier field of the form gets `_2`, `_3`…. The API is always sent the
 * document's own name.
 */
export function formFieldName(name: string, taken: ReadonlySet<string> = new Set()): string {
  const base =
    name
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .replace(/^(?=[0-9])/, "f_")
      .slice(0, 60) || "field";
  let candidate = base;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base}_${n}`;
  return candidate;
}

/** A schema's type as forms show it: the one reading every form uses (sdk/field-type.ts). */
function typeOf(schema: Schema): string {
  return fieldType(schema as Record<string, unknown>).type;
}

/** The bounds and format of a schema in words: `format email · 1–80 characters · at most 100`. */
function constraints(schema: Schema): string[] {
  const out: string[] = [];
  if (schema.format) out.push(`format ${schema.format}`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined)
    out.push(`${schema.minLength ?? 0}–${schema.maxLength ?? "∞"} characters`);
  if (schema.minimum !== undefined) out.push(`at least ${schema.minimum}`);
  if (schema.maximum !== undefined) out.push(`at most ${schema.maximum}`);
  if (schema.minItems !== undefined || schema.maxItems !== undefined)
    out.push(`${schema.minItems ?? 0}–${schema.maxItems ?? "∞"} items`);
  if (schema.pattern) out.push("pattern checked by the API");
  return out;
}

function exampleOf(schema: Schema, given?: unknown): unknown {
  if (given !== undefined) return given;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  return undefined;
}

function fromParameter(p: ApiParameter): OperationField {
  // A required parameter the document allows one value for (AWS's `X-Amz-Target`, an `Action`)
  // has that value as its default: shown on the form and sent when nothing else is given.
  const fixed =
    p.required && p.schema.default === undefined && p.schema.enum?.length === 1
      ? { ...p.schema, default: p.schema.enum[0] }
      : p.schema;
  return {
    name: p.name,
    param: p.name,
    where: p.in,
    required: p.required,
    schema: fixed,
    description: p.description,
    example: p.example,
  };
}

/** How deep a value nests objects and lists: deeper than this is refused (a summary shows all of it). */
const MAX_DEPTH = 10;

function depthOf(value: unknown, depth = 0): number {
  if (depth > MAX_DEPTH || value === null || typeof value !== "object") return depth;
  let deepest = depth + 1;
  for (const v of Object.values(value as object)) deepest = Math.max(deepest, depthOf(v, depth + 1));
  return deepest;
}

/**
 * The first key of a value its schema does not declare (`meta.on_behalf_of`), or null. An object
 * with declared properties takes only those, unless the schema allows more
 * (`additionalProperties`); a key nobody declared is refused, never carried along to the API.
 */
export function undeclaredKey(schema: Schema, value: unknown, path: string, depth = 0): string | null {
  if (depth > 12 || value === null || typeof value !== "object") return null;
  const branches = branchesOf(schema);
  if (branches) {
    // The value is read by the branch it matches: a key that branch does not declare is refused.
    // Where it matches none, the keys of the first branch of its type are named.
    let named: string | null = null;
    for (const branch of branches) {
      const found = undeclaredKey(branch, value, path, depth + 1);
      if (!found && !checkValue(path, branch, value, depth)) return null;
      if (found && !named && !checkValue(path, { ...branch, required: [] }, value, depth)) named = found;
    }
    return named;
  }
  const s = merged(schema);
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = undeclaredKey((s.items ?? {}) as Schema, item, `${path}.${i}`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const declared = Object.keys(properties).length > 0;
  const extra = s.additionalProperties;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const own = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (!own && ((declared && !extra) || extra === false)) return `${path}.${key}`;
    const next = own ?? (extra && typeof extra === "object" ? extra : {});
    const found = undeclaredKey(next, v, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * A `oneOf`/`anyOf` schema's branches, each with what the schema says beside them (FastAPI's
 * `Optional[Model]` is `anyOf: [{object}, {type: null}]`), or null when it has none. A value
 * must match one of them.
 */
function branchesOf(schema: Schema): Schema[] | null {
  const parts = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].filter(Boolean);
  if (!parts.length) return null;
  const { oneOf: _one, anyOf: _any, ...rest } = schema;
  return parts.slice(0, 20).map((part) =>
    merged({
      ...rest,
      ...part,
      properties: { ...(rest.properties ?? {}), ...(part.properties ?? {}) },
      required: [...(rest.required ?? []), ...(part.required ?? [])],
    }),
  );
}

/** An `allOf` schema's properties and required names as one object schema (the members merged). */
function merged(schema: Schema, depth = 0): Schema {
  if (!schema.allOf?.length || depth > 4) return schema;
  const out: Schema = {
    ...schema,
    properties: { ...(schema.properties ?? {}) },
    required: [...(schema.required ?? [])],
  };
  for (const part of schema.allOf) {
    const m = merged(part ?? {}, depth + 1);
    Object.assign(out.properties as Record<string, Schema>, m.properties ?? {});
    out.required?.push(...(m.required ?? []));
  }
  return out;
}

/**
 * The fields of a write operation: its path, query and header parameters and the top-level
 * properties of its JSON body (an object body; any other body is one field, `body`). Names that
 * could not be a field name are left out (and so never sent), and `readOnly` properties too.
 */
export function operationFields(op: ApiOperation): OperationField[] {
  const fields: OperationField[] = op.parameters.map(fromParameter);
  const schema = op.body?.schema ? merged(op.body.schema) : undefined;
  if (schema) {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    if (Object.keys(properties).length) {
      const required = new Set(schema.required ?? []);
      for (const [name, prop] of Object.entries(properties)) {
        if (!prop || prop.readOnly) continue;
        fields.push({
          name,
          param: name,
          where: "body",
          required: op.body?.required !== false && required.has(name),
          schema: prop,
          description: (prop.description ?? prop.title ?? "").slice(0, 300),
          example: exampleOf(prop),
        });
      }
    } else {
      fields.push({
        name: "body",
        param: "body",
        where: "body",
        whole: true,
        required: op.body?.required === true,
        schema,
        description: schema.description ?? "the request body (JSON)",
      });
    }
  }
  const taken = new Set<string>();
  return fields.slice(0, OPENAPI_LIMITS.maxFields).map((f) => {
    const name = formFieldName(f.param, taken);
    taken.add(name);
    return { ...f, name };
  });
}

/** Values by the document's names (a URI's path parameters) as values by the form's field names. */
export function byFieldName(
  fields: OperationField[],
  where: OperationField["where"],
  values: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields)
    if (f.where === where && values[f.param] !== undefined) out[f.name] = values[f.param];
  return out;
}

/** The typed form block's fields (browse's `formBlock`), with what the document says of each. */
export function formFields(fields: OperationField[], values: Record<string, unknown> = {}): FormField[] {
  return fields.map((f) => {
    const facts = [f.where === "body" ? "" : `${f.where} parameter`, ...constraints(f.schema)];
    const example = exampleOf(f.schema, f.example);
    if (example !== undefined) facts.push(`e.g. ${JSON.stringify(example).slice(0, 80)}`);
    return {
      name: f.name,
      type: typeOf(f.schema),
      required: f.required,
      description: [f.description, ...facts].filter(Boolean).join("; ").slice(0, 400),
      value: values[f.name] ?? f.schema.default,
      options: f.schema.enum?.slice(0, 30).map((v) => ({ value: String(v) })),
    };
  });
}

// Formats checked here with fixed expressions of our own; any other format (and `pattern`) the
// API checks. No expression is ever built from the document.
const FORMATS: Record<string, RegExp> = {
  email: /^[^\s@]{1,64}@[^\s@]{1,255}$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  // Dates as documents' own examples write them: a date-time's zone (or time) is often left out,
  // and a date often carries a midnight time; the API checks its exact format.
  date: /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/,
  "date-time": /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/,
  uri: /^https?:\/\/[^\s]+$/,
};

function checkValue(name: string, schema: Schema, value: unknown, depth = 0): string | null {
  if (depth > 8) return null;
  const branches = branchesOf(schema);
  if (branches) {
    let first: string | null = null;
    for (const branch of branches) {
      const problem = checkValue(name, branch, value, depth + 1);
      if (!problem && !undeclaredKey(branch, value, name, depth + 1)) return null;
      first ??= problem;
    }
    return `matches none of the document's ${branches.length} shapes for it${first ? ` (the first: ${first})` : ""}`;
  }
  schema = merged(schema);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (value === null) return types.includes("null") || schema.nullable ? null : "must not be null";
  if (schema.enum && !schema.enum.some((e) => e === value))
    return `must be one of ${schema.enum
      .slice(0, 20)
      .map((e) => JSON.stringify(e))
      .join(", ")}`;
  const nonNull = types.filter((x) => x !== "null");
  if (types.length && !nonNull.length) return "must be null";
  if (nonNull.length > 1) {
    const problems = nonNull.map((one) => checkValue(name, { ...schema, type: one }, value, depth + 1));
    return problems.includes(null) ? null : `must be one of the types ${nonNull.join(", ")}`;
  }
  const t = nonNull[0];
  if (t === "string") {
    if (typeof value !== "string") return "must be a string";
    if (schema.minLength !== undefined && value.length < schema.minLength)
      return `must have at least ${schema.minLength} characters`;
    if (schema.maxLength !== undefined && value.length > schema.maxLength)
      return `must have at most ${schema.maxLength} characters`;
    const format = schema.format ? FORMATS[schema.format] : undefined;
    if (format && !format.test(value)) return `must be a valid ${schema.format}`;
  } else if (t === "integer" || t === "number") {
    if (typeof value !== "number" || !Number.isFinite(value)) return `must be a ${t}`;
    if (t === "integer" && !Number.isInteger(value)) return "must be a whole number";
    if (schema.minimum !== undefined && value < schema.minimum) return `must be at least ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `must be at most ${schema.maximum}`;
  } else if (t === "boolean") {
    if (typeof value !== "boolean") return "must be true or false";
  } else if (t === "array") {
    if (!Array.isArray(value)) return "must be a list";
    if (schema.minItems !== undefined && value.length < schema.minItems)
      return `must have at least ${schema.minItems} items`;
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      return `must have at most ${schema.maxItems} items`;
    const items = (schema.items ?? {}) as Schema;
    for (const item of value.slice(0, 100)) {
      const problem = checkValue(name, items, item, depth + 1);
      if (problem) return `item: ${problem}`;
    }
  } else if (t === "object") {
    if (!value || typeof value !== "object" || Array.isArray(value)) return "must be an object";
    for (const key of (schema.required ?? []) as string[])
      if (!(key in (value as object))) return `needs ${key}`;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [key, v] of Object.entries(value as Record<string, unknown>).slice(0, 200)) {
      const own = Object.hasOwn(properties, key) ? properties[key] : undefined;
      const problem = own && v !== undefined ? checkValue(name, own, v, depth + 1) : null;
      if (problem) return `${key}: ${problem}`;
    }
  }
  return null;
}

/**
 * Checks submitted values against the operation's fields before anything is prepared: unknown
 * names, missing required fields, types, enums, bounds and the common formats. What the API
 * checks beyond that (patterns, cross-field rules) it answers itself when the write is sent.
 */
export function checkFields(fields: OperationField[], values: Record<string, unknown>): ValidationError[] {
  const errors: ValidationError[] = [];
  const known = new Map(fields.map((f) => [f.name, f]));
  // A name the form lacks is the agent's to correct (another name fixes it): named with the
  // field it most likely meant, by the document's names and descriptions, never sent in its place.
  for (const name of Object.keys(values))
    if (!known.has(name)) {
      const meant = closestField(
        name,
        values[name],
        fields.map((f) => ({ name: f.name, description: f.description, list: f.schema.type === "array" })),
      );
      errors.push({
        field: name.slice(0, 60),
        code: "unknown_field",
        message: `${name.slice(0, 60)} is not a field of this form${meant ? `; closest: ${meant.field}${meant.because ? ` (${meant.because})` : ""}` : ""}`,
        ...(meant ? { closest: meant.field } : {}),
      });
    }
  for (const field of fields) {
    const value = values[field.name];
    if (value === undefined || value === "") {
      if (field.required)
        errors.push({ field: field.name, code: "required", message: `${field.name} is required` });
      continue;
    }
    if (depthOf(value) > MAX_DEPTH) {
      errors.push({
        field: field.name,
        code: "too_deep",
        message: `${field.name} nests more than ${MAX_DEPTH} levels: it could not be shown in full`,
        refused: true,
      });
      continue;
    }
    const undeclared = undeclaredKey(field.schema, value, field.name);
    if (undeclared) {
      const key = undeclared.slice(0, 120);
      errors.push({
        field: key,
        code: "unknown_field",
        message: `${key} is not declared by the API's document: nothing undeclared is sent`,
        refused: true,
      });
      continue;
    }
    const problem = checkValue(field.name, field.schema, value);
    if (problem) errors.push({ field: field.name, code: "invalid", message: `${field.name} ${problem}` });
  }
  return errors;
}

/**
 * Form values as the API's types want them, before they are checked: what a form shows is what
 * is sent. A default the form shows is applied where no value was given; text for a number or a
 * boolean (forms and URIs carry text: `netbox://sites/1/delete`) becomes one (`"3"` → 3,
 * `"true"` → true); JSON text for an object or an array field becomes that object or array. A
 * value that does not read as its type is left as it is, for the check to name.
 */
export function coerceFields(
  fields: OperationField[],
  values: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const field of fields) {
    if (out[field.name] === undefined && field.schema.default !== undefined)
      out[field.name] = structuredClone(field.schema.default);
    const value = out[field.name];
    if (typeof value !== "string") continue;
    const shown = typeOf({ ...field.schema, enum: undefined });
    // A union that may be a structure (`object|string`) takes JSON text as the structure it names.
    const t = shown.includes("|") && /object|array/.test(shown) ? "any" : shown;
    if ((t === "integer" || t === "number") && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value.trim()))
      out[field.name] = Number(value.trim());
    else if (t === "boolean" && (value === "true" || value === "false")) out[field.name] = value === "true";
    else if ((t === "object" || t.startsWith("array") || t === "any") && /^\s*[[{]/.test(value)) {
      try {
        const parsed = JSON.parse(value) as unknown;
        if (t === "any" || Array.isArray(parsed) === t.startsWith("array")) out[field.name] = parsed;
      } catch {
        // Not JSON: left as text, and the check says what it must be.
      }
    }
  }
  return out;
}
