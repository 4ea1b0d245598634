import { z } from "zod";
import type { AnyCapability } from "../connectors/sdk/define-capability";
import { type FieldType, fieldType } from "../connectors/sdk/field-type";

export interface InputDescription {
  field: string;
  node: string;
  required: boolean;
  depends_on?: string[];
  description?: string;
  /**
   * The field's type as a form shows it (`array<string>`, `integer`, `enum`), from its schema:
   * every face that renders a form types it from here, not from the field's name.
   */
  type: string;
  /** An enum's values, as they are sent. */
  values?: string[];
}

/** A field schema's form type, read once per schema (every start describes the whole flow). */
const typeOfSchema = new WeakMap<z.ZodType, FieldType>();

/** The form type of one field's zod schema (see fieldType). */
export function schemaFieldType(schema: z.ZodType): FieldType {
  const known = typeOfSchema.get(schema);
  if (known) return known;
  const json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as Record<string, unknown>;
  const typed = fieldType(json);
  typeOfSchema.set(schema, typed);
  return typed;
}

type CapabilityNode = AnyCapability["nodes"][number];

/**
 * Read once per node and capability: both follow from definitions that never change once loaded,
 * and a schema refusing `undefined` costs zod 10–20 µs to say so (its issues are built), for every
 * field of every capability a search lists, each call.
 */
const requiredOf = new WeakMap<CapabilityNode, readonly string[]>();
const inputsOf = new WeakMap<AnyCapability, readonly InputDescription[]>();

/** A node's declared required fields; by default every field whose schema does not accept undefined. */
export function requiredFields(node: CapabilityNode): readonly string[] {
  let required = requiredOf.get(node);
  if (!required) {
    required = Object.freeze([
      ...(node.required ??
        Object.entries(node.fields ?? {})
          .filter(([, schema]) => !schema.safeParse(undefined).success)
          .map(([field]) => field)),
    ]);
    requiredOf.set(node, required);
  }
  return required;
}

/** The whole flow's inputs up front, so an agent can send everything it already knows in one patch. */
export function describeInputs(capability: AnyCapability): InputDescription[] {
  let inputs = inputsOf.get(capability);
  if (!inputs) {
    inputs = readInputs(capability);
    inputsOf.set(capability, inputs);
  }
  // Each answer's own entries: an outcome is the caller's to change.
  return inputs.map((entry) => ({ ...entry }));
}

function readInputs(capability: AnyCapability): InputDescription[] {
  const out: InputDescription[] = [];
  for (const node of capability.nodes) {
    // A paid choice (a shipping method and its price) is the user's to make: required, never defaulted.
    const required = [...requiredFields(node), ...(node.paidChoices ?? [])];
    for (const [field, schema] of Object.entries(node.fields ?? {})) {
      const { type, values } = schemaFieldType(schema);
      const entry: InputDescription = { field, node: node.id, required: required.includes(field), type };
      if (values) entry.values = values;
      if (node.dependsOn?.length) entry.depends_on = node.dependsOn;
      if (schema.description) entry.description = schema.description;
      out.push(entry);
    }
  }
  return out;
}

/**
 * The shape of a field that is not a plain value, in a few tokens (`[{sku, quantity}]`,
 * `[string]`), so that a text-only agent sends the right structure the first time; undefined
 * for strings, numbers and booleans, whose choices or messages say enough.
 */
function fieldShape(schema: z.ZodType): string | undefined {
  const json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as Record<string, unknown>;
  const brief = (node: Record<string, unknown> | undefined): string => {
    if (!node) return "value";
    if (node.type === "array") return `[${brief(node.items as Record<string, unknown> | undefined)}]`;
    if (node.type === "object" && node.properties)
      return `{${Object.keys(node.properties as Record<string, unknown>).join(", ")}}`;
    return typeof node.type === "string" ? node.type : "value";
  };
  return json.type === "array" || json.type === "object" ? brief(json) : undefined;
}

/** The shapes of the named fields that are structures (see fieldShape), by field. */
export function fieldShapes(capability: AnyCapability, fields: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const node of capability.nodes)
    for (const [field, schema] of Object.entries(node.fields ?? {})) {
      if (!fields.includes(field)) continue;
      const shape = fieldShape(schema);
      if (shape) out[field] = shape;
    }
  return out;
}

/** Every patch field of the capability, in node order. */
export function allPatchFields(capability: AnyCapability): string[] {
  return capability.nodes.flatMap((n) => Object.keys(n.fields ?? {}));
}

/** The node that owns a patch field, or undefined when no node does. */
export function nodeIndexOfField(capability: AnyCapability, field: string): number {
  return capability.nodes.findIndex((n) => n.fields && Object.hasOwn(n.fields, field));
}

/** A JSON Schema of the patch a node accepts, so agents get types at runtime (get_context). */
export function patchJsonSchema(capability: AnyCapability, fields: string[]): Record<string, unknown> {
  const shape: Record<string, z.ZodType> = {};
  for (const node of capability.nodes) {
    for (const [field, schema] of Object.entries(node.fields ?? {})) {
      if (fields.includes(field)) shape[field] = schema.optional();
    }
  }
  return z.toJSONSchema(z.object(shape).strict(), { unrepresentable: "any" }) as Record<string, unknown>;
}
