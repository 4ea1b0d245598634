import { z } from "zod";
import {
  describeInputs,
  type InputDescription,
  requiredFields,
  schemaFieldType,
} from "../connectors/sdk/capability-inputs";
import type { AnyCapability } from "../connectors/sdk/define-capability";

// Read in the connectors' SDK (a page's link to a form lists the same inputs); named here for
// the engine's modules that already import them from this file.
export { describeInputs, type InputDescription, requiredFields, schemaFieldType };

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
