import type { ZodType } from "zod";
import type { AnyCapability } from "../connectors/sdk/define-capability";
import { isFreeText } from "./choice-words";

/**
 * A free-text field that is a reason (its name says reason or why, or its description opens with
 * "Why"), of a change a person approves: when the user gave none, it takes their request
 * verbatim — what every answer already told the agent to send ("if they gave none, their request
 * verbatim"). Round 8's model was asked for an exchange's reason it had already sent as intent.
 * A comment or a resolution is never filled so: it is text the customer reads, not a why, and
 * a change nobody approves would send it unseen (a reason it only keeps, NodeDefinition.keptOnly,
 * is filled). It is marked as the user's own words and nothing
 * more: a hedge ("the user gave no reason of their own") read as "ask for a reason" (issue 23).
 */
export function takesRequestAsReason(
  capability: AnyCapability,
  field: string,
  schema: ZodType,
  options: Record<string, unknown>,
): boolean {
  if (capability.policy.effect === "read") return false;
  // Unseen by a person before it runs, a reason is taken only where nothing sends it on (set W:
  // "reopen the invoice copy ticket" stopped at "needs reason" for text the helpdesk never gets).
  const kept = capability.nodes.some((n) => n.keptOnly?.includes(field));
  if (capability.policy.approval === "never" && !kept) return false;
  const named = field
    .toLowerCase()
    .split(/[^a-z]+/)
    .some((w) => w === "reason" || w === "why");
  const why = /^\s*why\b/i.test(schema.description ?? "");
  return (named || why) && isFreeText(field, schema, options);
}
