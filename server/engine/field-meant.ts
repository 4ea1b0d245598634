import type { z } from "zod";
import { type ClosestField, closeFields, firstClause } from "../connectors/sdk/closest-field";
import type { AnyCapability } from "../connectors/sdk/define-capability";
import { isFreeText } from "./choice-words";

/**
 * The capability's field a patch field it does not have most likely meant, by what the
 * capability itself declares (closestField: a shared word of the names, a slip of the spelling,
 * a description that says it is that thing), else, for a value of a person's own words, the one
 * free-text field. Only a field among `allowed` whose schema takes the value counts, and only
 * one clear candidate: two equally likely are no answer. Round 7's model sent `comment` to
 * comment_ticket and was told only that the field does not exist.
 */
export function fieldMeant(
  capability: AnyCapability,
  sent: string,
  value: unknown,
  allowed: string[],
): ClosestField | undefined {
  const found = fieldsMeant(capability, sent, value, allowed);
  return found.length === 1 ? found[0] : undefined;
}

/** fieldMeant's candidates: one clear field, or the few equally close ones (named, none chosen). */
export function fieldsMeant(
  capability: AnyCapability,
  sent: string,
  value: unknown,
  allowed: string[],
): ClosestField[] {
  const fields = capability.nodes
    .flatMap((n) => Object.entries(n.fields ?? {}))
    .filter(([f]) => allowed.includes(f));
  const found = closeFields(
    sent,
    value,
    fields.map(([name, schema]) => ({
      name,
      description: schema.description,
      takes: (v: unknown) => schema.safeParse(v).success,
      list: takesList(schema),
    })),
  );
  if (found.length) return found;
  // A person's own sentence: it can only go where free text goes, when one field takes it.
  if (typeof value !== "string" || !/\s/.test(value.trim())) return [];
  const free = fields.filter(([f, s]) => isFreeText(f, s, {}) && s.safeParse(value).success);
  if (free.length !== 1 || !free[0]) return [];
  const [field, schema] = free[0];
  return [
    {
      field,
      because: `the only free-text field${schema.description ? `: "${firstClause(schema.description)}"` : ""}`,
    },
  ];
}

/** Whether a field's schema is a list, under its optional, nullable or default wrappers. */
function takesList(schema: z.ZodType): boolean {
  const def = (schema as unknown as { def?: { type?: string; innerType?: z.ZodType } }).def;
  if (def?.type === "array") return true;
  return (
    !!def?.innerType &&
    ["optional", "nullable", "default"].includes(def.type ?? "") &&
    takesList(def.innerType)
  );
}
