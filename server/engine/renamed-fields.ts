import type { AnyCapability, Values } from "../connectors/sdk/define-capability";
import type { ValidationError } from "../connectors/sdk/outcome";
import { choicesFor } from "./choice-words";

/**
 * A patch's misnamed fields, each under the one field meant (field → the name sent), where every
 * field refused is such a slip and the field meant is a closed choice that has the value sent
 * among its own (set AR: a payment method sent under another name than the capability's cost a
 * refusal and a second start on both hosts). Never free text or an id (a wrong name there may
 * be another thing altogether: "payout account" is no reason), nor the record field: the record
 * a start is about is the one the gateway authorized, by its own name. Only where a person
 * approves every change the capability makes: the value is on their screen, under its own label,
 * before anything happens (review 55: `current_priority: "low"` beside "raise the priority" set
 * a priority nobody approves to low at once; a name cannot tell "the value now" from "the new one").
 */
export function renamedFields(
  capability: AnyCapability,
  patch: Values,
  problems: readonly ValidationError[],
): Record<string, string> | null {
  if (capability.policy.approval !== "always") return null;
  const schemas = Object.fromEntries(capability.nodes.flatMap((n) => Object.entries(n.fields ?? {})));
  const renamed: Record<string, string> = {};
  for (const p of problems) {
    const meant = p.code === "field_not_allowed" ? p.closest : undefined;
    if (!meant || meant === capability.appliesTo.field || meant in patch || meant in renamed) return null;
    if (!sameThing(p.field, meant)) return null;
    const schema = schemas[meant];
    // A closed choice's own values (an enum's), as the choices of every node are read.
    if (!schema || !choicesFor(meant, {}, schema).some((c) => c.value === patch[p.field])) return null;
    renamed[meant] = p.field;
  }
  return renamed;
}

/**
 * Words a field's name may differ by and still name the same thing: the kind of field it is, not
 * a word that turns its meaning ("not_", "avoid_", "unwanted_", "current_": review 55b).
 */
const KIND_WORDS = new Set([
  "method",
  "type",
  "kind",
  "option",
  "choice",
  "mode",
  "code",
  "id",
  "name",
  "value",
]);

/** Whether the name sent differs from the field meant only by such words. */
function sameThing(sent: string, meant: string): boolean {
  const own = new Set(meant.toLowerCase().split(/[^a-z0-9]+/));
  return sent
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .every((w) => own.has(w) || KIND_WORDS.has(w));
}
