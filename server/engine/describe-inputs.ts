import { z } from "zod";
import type { AnyCapability } from "../connectors/sdk/define-capability";

export interface InputDescription {
  field: string;
  node: string;
  required: boolean;
  depends_on?: string[];
  description?: string;
}

/** A node's declared required fields; by default every field whose schema does not accept undefined. */
export function requiredFields(node: AnyCapability["nodes"][number]): string[] {
  return (
    node.required ??
    Object.entries(node.fields ?? {})
      .filter(([, schema]) => !schema.safeParse(undefined).success)
      .map(([field]) => field)
  );
}

/** The whole flow's inputs up front, so an agent can send everything it already knows in one patch. */
export function describeInputs(capability: AnyCapability): InputDescription[] {
  const out: InputDescription[] = [];
  for (const node of capability.nodes) {
    const required = requiredFields(node);
    for (const [field, schema] of Object.entries(node.fields ?? {})) {
      const entry: InputDescription = { field, node: node.id, required: required.includes(field) };
      if (node.dependsOn?.length) entry.depends_on = node.dependsOn;
      if (schema.description) entry.description = schema.description;
      out.push(entry);
    }
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
