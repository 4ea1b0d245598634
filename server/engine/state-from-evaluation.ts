import { type AnyCapability, approversOf } from "../connectors/sdk/define-capability";
import type { ActionState, ActionStatus } from "./action-state";
import { defaultedNames, markedSummary } from "./defaulted-fields";
import { nodeIndexOfField } from "./describe-inputs";
import type { Evaluation } from "./evaluate-action";
import { summaryDigest } from "./summary-digest";

/**
 * What an evaluation means for the stored state: which of the patch's fields were applied and
 * which wait downstream, and, at the confirmation node, the summary a person approves.
 */
export function stateFromEvaluation(
  capability: AnyCapability,
  ev: Evaluation,
  patchFields: string[],
  previous: ActionState,
): ActionState {
  const applied = patchFields.filter((f) => {
    const idx = nodeIndexOfField(capability, f);
    if (idx < ev.nodeIndex) return true;
    return idx === ev.nodeIndex && !ev.errors.some((e) => e.field.split(".")[0] === f);
  });
  const pending = patchFields.filter(
    (f) =>
      nodeIndexOfField(capability, f) > ev.nodeIndex && !ev.errors.some((e) => e.field.split(".")[0] === f),
  );
  const defaulted = defaultedNames(ev);
  const summary =
    ev.atConfirmation && capability.summarize
      ? markedSummary(capability.summarize({ values: ev.values, derived: ev.derived }), {
          defaulted,
          fromRequest: ev.fromRequest,
        })
      : null;
  return {
    ...previous,
    values: ev.values,
    derived: ev.derived,
    options: ev.options,
    applied,
    missing: ev.missing,
    pending,
    validation_errors: ev.errors,
    summary,
    digest: summary ? summaryDigest(summary) : null,
    requires_approval: summary ? approvalRequired(capability, summary) : false,
    defaulted: defaulted.length ? defaulted : undefined,
    from_request: ev.fromRequest.length ? ev.fromRequest : undefined,
  };
}

function approvalRequired(capability: AnyCapability, summary: Record<string, unknown>): boolean {
  const rule = capability.policy.approval;
  if (rule === "always") return true;
  if (rule === "never") return false;
  return rule(summary);
}

/** Where an evaluation leaves the action: a read capability that passed every node is done. */
export function statusAfterEvaluation(
  capability: AnyCapability,
  ev: Evaluation,
  state: ActionState,
): ActionStatus {
  if (ev.atConfirmation) return state.requires_approval ? "awaiting_approval" : "open";
  if (ev.nodeIndex >= capability.nodes.length && capability.policy.effect === "read") return "completed";
  return "open";
}

/** The one-line message of start/advance: where the action stopped and why. */
export function evaluationMessage(capability: AnyCapability, ev: Evaluation, state: ActionState): string {
  if (ev.errors.length) return `Stopped at ${ev.node}: ${ev.errors.map((e) => e.message).join("; ")}`;
  if (ev.missing.length)
    return `${capability.title}: ${ev.node} needs ${ev.missing.map((f) => withOffer(f, ev.options)).join(", ")}`;
  if (ev.atConfirmation)
    return state.requires_approval
      ? `${capability.title} is ready; ${whoApproves(capability, state.summary)} must approve it`
      : `${capability.title} is ready to confirm`;
  return `${capability.title} done`;
}

/** Who decides, in the words an agent passes on ("an admin", not "the user", when it is so). */
function whoApproves(capability: AnyCapability, summary: unknown): string {
  const rule = approversOf(capability, summary);
  const who = [...(rule.subject ? ["the user"] : []), ...rule.roles.map((role) => `an ${role}`)];
  return who.join(" or ") || "a person";
}

/**
 * A missing field with where its choices are ("items, from cart: 2 offered"): "needs items" beside
 * a full cart read as if the cart were empty.
 */
function withOffer(field: string, options: Record<string, unknown>): string {
  const fieldOf = (options.field_of ?? {}) as Record<string, string>;
  const offers = Object.entries(fieldOf)
    .filter(([, f]) => f === field || f.startsWith(`${field}[]`))
    .map(([list]) => [list, options[list]] as const)
    .filter(([, rows]) => Array.isArray(rows) && rows.length)
    .map(([list, rows]) => `${list}: ${(rows as unknown[]).length} offered`);
  return offers.length ? `${field} (from ${offers.join("; ")})` : field;
}
