import { z } from "zod";
import type { AnyCapability } from "./define-capability";
import { type FieldType, fieldType } from "./field-type";

// The inputs a capability's nodes declare, read the one way every face reads them: the engine
// describes the whole flow up front with them, and a page's link to a form lists the same fields
// (form-fields-line.ts), so a model submits from the link without opening the form first.

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

/** Defaults of field schemas (`internal` → false), read once per schema; undefined when none. */
const defaultOfSchema = new WeakMap<z.ZodType, { value: unknown }>();

/** The value a field takes when it is not sent (its schema's default), or undefined. */
export function schemaDefault(schema: z.ZodType): unknown {
  let known = defaultOfSchema.get(schema);
  if (!known) {
    const json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as Record<string, unknown>;
    known = { value: json.default };
    defaultOfSchema.set(schema, known);
  }
  return known.value;
}
