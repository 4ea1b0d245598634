import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { z } from "zod";
import { LISTED_BOUNDS } from "@/server/gateway/listed-bounds";

const SAFE_INT = 9007199254740991;

/** Drops what costs tokens and says nothing: `$schema`, JS safe-integer bounds, bare `propertyNames`. */
function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === "$schema" || key === LISTED_BOUNDS) continue;
    if ((key === "maximum" && value === SAFE_INT) || (key === "minimum" && value === -SAFE_INT)) continue;
    if (key === "propertyNames" && JSON.stringify(value) === '{"type":"string"}') continue;
    // Property names are strings by definition: only their other constraints say anything.
    if (
      key === "propertyNames" &&
      value &&
      typeof value === "object" &&
      (value as { type?: unknown }).type === "string"
    ) {
      const { type: _, ...constraints } = value as Record<string, unknown>;
      out[key] = compact(constraints);
      continue;
    }
    if (
      (key === "additionalProperties" || key === "items") &&
      value &&
      typeof value === "object" &&
      Object.keys(value).length === 0
    ) {
      continue; // `{}` allows anything, as the absence does
    }
    out[key] = compact(value);
  }
  // A pattern that refuses the empty string already says minLength 1.
  if (out.minLength === 1 && typeof out.pattern === "string" && !new RegExp(out.pattern).test(""))
    delete out.minLength;
  return mergeTypeUnion(out);
}

/** The keywords that constrain only values of one JSON type (JSON Schema 2020-12, validation). */
const TYPE_KEYWORDS: Record<string, string[]> = {
  string: ["minLength", "maxLength", "pattern", "format"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  integer: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  array: ["items", "prefixItems", "minItems", "maxItems", "uniqueItems"],
  object: [
    "properties",
    "required",
    "additionalProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
  ],
  boolean: [],
  null: [],
};

/**
 * `anyOf` of branches that each allow one JSON type, with only that type's keywords, says the
 * same as one schema with a list of types: a type's keywords never constrain another type's
 * values. zod writes every union as anyOf; the merged form costs a third of the tokens.
 */
function mergeTypeUnion(node: Record<string, unknown>): Record<string, unknown> {
  const branches = node.anyOf;
  if (!Array.isArray(branches) || branches.length < 2) return node;
  const merged: Record<string, unknown> = {};
  const types: string[] = [];
  for (const branch of branches as Array<Record<string, unknown>>) {
    const type = branch?.type;
    if (typeof type !== "string" || types.includes(type) || !(type in TYPE_KEYWORDS)) return node;
    // Every integer is a number: number keywords would constrain the integer branch too.
    if ((type === "integer" && types.includes("number")) || (type === "number" && types.includes("integer")))
      return node;
    for (const [key, value] of Object.entries(branch)) {
      if (key === "type") continue;
      if (!TYPE_KEYWORDS[type]?.includes(key) || key in merged) return node;
      merged[key] = value;
    }
    types.push(type);
  }
  const { anyOf: _, ...rest } = node;
  if (Object.keys(rest).some((key) => key in merged || key === "type")) return node;
  return { ...rest, type: types, ...merged };
}

/**
 * The JSON Schemas of each zod schema, converted once per process. The MCP server is built per
 * request (stateless), and converting every tool's schema on every call was a fifth of a call's
 * CPU time (`npm run bench` profile); the schemas never change at run time.
 */
const listedSchemas = new WeakMap<
  z.ZodType,
  { input: Record<string, unknown>; output: Record<string, unknown> }
>();

/** The keywords that bound a value's size or spelling (not its type, shape or allowed keys). */
const BOUNDS = new Set([
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "maxItems",
  "propertyNames",
]);

/**
 * The shape of a schema without its bounds: types, required fields, enums, the bounds a field
 * marks as listed and `additionalProperties: false` stay; other lengths, patterns and ranges go. Listed for the tools whose
 * handler parses the strict schema itself, so every bound is still enforced and a value outside
 * one is the gateway's typed refusal naming the field: a model reads the shape, and each listed
 * regex and length cost every tools/list about a fifth of the default faces' tokens.
 */
function shapeOnly(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shapeOnly);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  // A field may name bounds no model would guess, listed anyway (`.meta({ [LISTED_BOUNDS]: [...] })`):
  // an idempotency key's 8 characters — round 3's models sent short keys and lost four calls.
  const listedBounds = (node as Record<string, unknown>)[LISTED_BOUNDS];
  const kept = new Set(Array.isArray(listedBounds) ? listedBounds : []);
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === LISTED_BOUNDS || (BOUNDS.has(key) && !kept.has(key))) continue;
    // Inside `properties` the keys are field names, never keywords: each one is kept.
    out[key] =
      key === "properties" && value && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOnly(v)]))
        : shapeOnly(value);
  }
  return out;
}

function listed(schema: z.ZodType, shape = false) {
  const key = shape ? shapeKey(schema) : schema;
  let entry = listedSchemas.get(key);
  if (!entry) {
    const input = z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" });
    entry = {
      input: compact(shape ? shapeOnly(input) : input) as Record<string, unknown>,
      output: compact(z.toJSONSchema(schema, { io: "output", target: "draft-2020-12" })) as Record<
        string,
        unknown
      >,
    };
    listedSchemas.set(key, entry);
  }
  return entry;
}

/** A second cache key per schema for its shape-only listing. */
const shapeKeys = new WeakMap<z.ZodType, z.ZodType>();
function shapeKey(schema: z.ZodType): z.ZodType {
  let key = shapeKeys.get(schema);
  if (!key) {
    key = z.never();
    shapeKeys.set(schema, key);
  }
  return key;
}

/** Arguments as they arrive, before the handler's own zod parse. */
export type RawArguments = Record<string, unknown>;

/**
 * Accepts any JSON object and nothing else. Tool arguments are an object by the protocol; a
 * client that sends something else still gets the SDK's plain error, because there is no field
 * a typed refusal could name.
 */
function anyObject(value: unknown) {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? { value: value as RawArguments }
    : { issues: [{ message: "arguments must be a JSON object" }] };
}

/**
 * The same zod schema, listed compactly: only the JSON Schema the host sees is trimmed.
 *
 * `validation: "sdk"` (default) lets the SDK validate with zod; its refusals are bare
 * `isError` texts. `validation: "handler"` lists the same strict schema but lets any object
 * through to the handler, which parses it itself: a wrong argument (an identity field such as
 * `tenant_id`, a wrong type, a value past a bound) then becomes the gateway's typed, audited
 * `rejected` / `invalid_arguments` outcome instead of an SDK error no audit row ever sees. Its
 * listing is the shape only (see shapeOnly): the bounds are the handler's to enforce.
 */
export function compactSchema<S extends z.ZodType>(
  schema: S,
): StandardSchemaWithJSON<z.input<S>, z.output<S>>;
export function compactSchema<S extends z.ZodType>(
  schema: S,
  options: { validation: "handler" },
): StandardSchemaWithJSON<RawArguments, RawArguments>;
export function compactSchema<S extends z.ZodType>(
  schema: S,
  options: { validation: "sdk" | "handler" } = { validation: "sdk" },
): StandardSchemaWithJSON<unknown, unknown> {
  const standard = schema["~standard"];
  return {
    "~standard": {
      version: 1,
      vendor: "signpost",
      validate: options.validation === "handler" ? anyObject : (value: unknown) => standard.validate(value),
      jsonSchema: {
        input: () => listed(schema, options.validation === "handler").input,
        output: () => listed(schema).output,
      },
    },
  } as unknown as StandardSchemaWithJSON<unknown, unknown>;
}
