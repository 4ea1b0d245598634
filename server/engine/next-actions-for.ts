import type { AnyCapability } from "../connectors/sdk/define-capability";
import type { NextAction, ValidationError } from "../connectors/sdk/outcome";
import type { ActionState } from "./action-state";
import type { EffectRow } from "./action-store";
import type { ApprovalView } from "./approval-view";
import { allPatchFields } from "./describe-inputs";
import { recoverOffered } from "./recover-offered";

/**
 * The calls that make sense next, from the action's status, its state and its effect. An empty
 * list means the flow is finished; any call not on the list is refused (`not_in_next_actions`).
 */
export function nextActionsFor(
  capability: AnyCapability,
  action: { id: string; version: number; status: string; entityId?: string | null },
  state: ActionState,
  effect: EffectRow | null,
  approval: ApprovalView | null,
): NextAction[] {
  const out = byStatus(capability, action, state, effect, approval);
  // Decided in one place (recoverOffered), which recoverAction also obeys.
  if (recoverOffered(action, effect))
    out.push({
      tool: "recover_action",
      args: { action_id: action.id },
      description:
        action.status === "unknown"
          ? "If verification shows nothing happened, retry with the original key"
          : "Verify with the system of record, then retry with the original key if nothing happened",
    });
  return out;
}

function byStatus(
  capability: AnyCapability,
  action: { id: string; version: number; status: string; entityId?: string | null },
  state: ActionState,
  effect: EffectRow | null,
  approval: ApprovalView | null,
): NextAction[] {
  const id = action.id;
  const verify = (description: string): NextAction => ({
    tool: "verify_action",
    args: { action_id: id },
    description,
  });
  switch (action.status) {
    case "completed":
    case "cancelled":
      return [];
    case "refused":
      // Ended at its start: nothing is held, so no cancel; what is possible instead.
      return insteadOf(capability, state, true);
    case "applied":
      return [verify("Check with the system of record that the change really happened")];
    case "executing":
      return [verify("The effect is being sent; check its result")];
    case "unknown":
      return [verify("Check with the system of record first; do not resubmit")];
    case "failed":
      if (effect?.status !== "failed") return [];
      return [
        {
          tool: "confirm_action",
          args: { action_id: id, version: action.version },
          description: "Retry later; the same action key is reused, so it cannot apply twice",
        },
        verify("Check whether anything happened"),
      ];
  }
  // Refused with alternatives: nothing the agent could send makes this possible now, so a "Fix"
  // would only send the model round in circles; the way forward is what is possible instead.
  // Only an advance gets here (a refused start ends as `refused`): the action stays open, as
  // the record field may still take another record the user names, or it is ended here.
  if (state.validation_errors.some((e) => e.refused)) {
    const entity = capability.appliesTo.entity.toLowerCase();
    const field = capability.appliesTo.field;
    const another: NextAction[] =
      field && !action.entityId
        ? [
            {
              tool: "advance_action",
              args: { action_id: id, version: action.version },
              description: `Another ${entity} the user names (${field})`,
            },
          ]
        : [];
    return [
      ...insteadOf(capability, state, !another.length),
      ...another,
      {
        tool: "cancel_action",
        args: { action_id: id },
        description: "This action stays open until cancelled",
      },
    ];
  }
  if (state.missing.length || state.validation_errors.length || !state.summary)
    return [
      {
        tool: "advance_action",
        args: { action_id: id, version: action.version },
        description: state.validation_errors.length
          ? `Fix: ${state.validation_errors.map((e) => e.field).join(", ")}`
          : `Fill in: ${state.missing.join(", ") || "the fields in allowed_patch"}`,
      },
    ];
  const changeable = allPatchFields(capability).length > 0;
  const change = (description: string): NextAction => ({
    tool: "advance_action",
    args: { action_id: id, version: action.version },
    description,
  });
  if (state.requires_approval && approval?.status === "rejected")
    // The person said no: the agent may change what they objected to (which asks them again),
    // or stop. Confirming this version is not on offer.
    return changeable
      ? [
          change(
            `The user rejected this${approval.reason ? ` ("${approval.reason}")` : ""}; change what they objected to (that asks them again), or stop`,
          ),
        ]
      : [];
  const out: NextAction[] = [];
  if (changeable)
    out.push(change(state.requires_approval ? "Change details (asks for a new approval)" : "Change details"));
  const what = capability.effect?.description ?? "Execute";
  const status = state.requires_approval ? (approval?.status ?? "pending") : "approved";
  out.push({
    tool: "confirm_action",
    args: { action_id: id, version: action.version },
    description:
      status === "approved"
        ? `${approvedBy(approval)}${what}`
        : status === "expired"
          ? "The approval request expired before anyone approved it; confirm_action asks the user again (nothing is sent until they approve)"
          : // The person's approval runs the confirm itself (the gateway's decide-approval):
            // nothing is left for the agent to call once they approve.
            `The user's approval carries it out (${what.toLowerCase()}); nothing to call after they approve: get_context shows the result`,
    requires_user_approval: status !== "approved",
  });
  return out;
}

function approvedBy(approval: ApprovalView | null): string {
  if (!approval?.decided_by || !approval.decided_at) return "";
  return `Approved by ${approval.decided_by.name} at ${approval.decided_at.slice(11, 16)} UTC: `;
}

/**
 * After a refusal: the alternatives the capability named (track the parcel instead), then this
 * capability started for another record the user names (`withAnother`, when it takes a record
 * and no alternative is that already).
 */
function insteadOf(capability: AnyCapability, state: ActionState, withAnother: boolean): NextAction[] {
  const alternatives = state.validation_errors.flatMap((e) => (e.refused ? (e.alternatives ?? []) : []));
  const out: NextAction[] = alternatives.map((a) => ({
    tool: "start_action" as const,
    args: { capability: a.capability, ...(a.entity_id ? { entity_id: a.entity_id } : {}) },
    description: a.description,
  }));
  const again = anotherChoiceStart(capability, state.validation_errors, state.values);
  if (again.length) return [...out, ...again];
  const entity = capability.appliesTo.entity.toLowerCase();
  // Already so: the same change elsewhere, or another value of what was asked, is what remains.
  const already = state.validation_errors.find((e) => e.already && e.field !== capability.appliesTo.field);
  if (withAnother && capability.appliesTo.field && !alternatives.some((a) => a.capability === capability.id))
    out.push({
      tool: "start_action",
      args: { capability: capability.id },
      description: already
        ? `Another ${entity}, or another ${already.field}, the user names`
        : `Another ${entity} the user names`,
    });
  return out;
}

/**
 * After a start refused for a choice that cannot be taken (`choice_closed`: sold out): the same
 * start on the same record, with the choice the user makes among those the refusal names.
 */
export function anotherChoiceStart(
  capability: AnyCapability,
  errors: readonly ValidationError[],
  values: Record<string, unknown>,
): NextAction[] {
  const closed = [...new Set(errors.filter((e) => e.choice_closed).map((e) => e.field))];
  if (!closed.length) return [];
  const field = capability.appliesTo.field;
  const id = field ? values[field] : undefined;
  return [
    {
      tool: "start_action",
      args: { capability: capability.id, ...(typeof id === "string" ? { entity_id: id } : {}) },
      description: `Again with the user's choice of ${closed.join(", ")} (one that can be taken)`,
    },
  ];
}
