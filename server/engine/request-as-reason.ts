import type { ZodType } from "zod";
import type { AnyCapability } from "../connectors/sdk/define-capability";
import { isFreeText } from "./choice-words";
import { queryClauses } from "./query-clauses";

/**
 * A free-text field that is a reason (its name says reason or why, or its description opens with
 * "Why"), of a change a person approves: when the user gave none, it takes their request
 * verbatim — what every answer already told the agent to send ("if they gave none, their request
 * verbatim"). Round 8's model was asked for an exchange's reason it had already sent as intent.
 * A comment or a resolution is never filled so: it is text the customer reads, not a why, and
 * a change nobody approves would send it unseen. Only words that hold a why are taken (see
 * `wordsHoldReason`): "Cancel my lamp order" gives none, and filled with it the reason had to be
 * hedged on every surface, which the played model read as "ask for a reason" (issue 23).
 */
export function takesRequestAsReason(
  capability: AnyCapability,
  field: string,
  schema: ZodType,
  options: Record<string, unknown>,
): boolean {
  if (capability.policy.approval === "never" || capability.policy.effect === "read") return false;
  const named = field
    .toLowerCase()
    .split(/[^a-z]+/)
    .some((w) => w === "reason" || w === "why");
  const why = /^\s*why\b/i.test(schema.description ?? "");
  return (named || why) && isFreeText(field, schema, options);
}

/**
 * Whether the user's words say why, not only what to do: a clause beside the ask that describes
 * the situation ("it came late", "the tee is too small", "because it broke"). A lone ask ("Cancel
 * my lamp order", "I want to return the tee") holds none: the reason stays missing and is asked.
 * Grammar only (query-clauses.ts), no business words.
 */
export function wordsHoldReason(request: string): boolean {
  return queryClauses(request.toLowerCase()).some((c) => c.role === "situation");
}
