import type { ActionState } from "./action-state";
import type { EffectRow } from "./action-store";
import type { AnyCapability } from "./define-capability";
import { allPatchFields } from "./describe-inputs";
import type { NextAction } from "./outcome";
import { recoverOffered } from "./recover-offered";

/**
 * The calls that make sense next, from the action's status, its state and its effect. An empty
 * list means the flow is finished; any call not on the list is refused (`not_in_next_actions`).
 */
export function nextActionsFor(
  capability: AnyCapability,
  action: { id: string; version: number; status: string },
  state: ActionState,
  effect: EffectRow | null,
  approvalStatus: string | null,
  approvalUrl: (actionId: string) => string,
): NextAction[] {
  const out = byStatus(capability, action, state, effect, approvalStatus, approvalUrl);
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
  action: { id: string; version: number; status: string },
  state: ActionState,
  effect: EffectRow | null,
  approvalStatus: string | null,
  approvalUrl: (actionId: string) => string,
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
  const needsApproval = state.requires_approval && approvalStatus !== "approved";
  const out: NextAction[] = [];
  if (allPatchFields(capability).length)
    out.push({
      tool: "advance_action",
      args: { action_id: id, version: action.version },
      description: "Change details before confirming (a change needs a new approval)",
    });
  const what = capability.effect?.description;
  out.push({
    tool: "confirm_action",
    args: { action_id: id, version: action.version },
    description: needsApproval
      ? `After the user approves at ${approvalUrl(id)}, ${what ?? "execute"} (send a new idempotency_key)`
      : `${what ?? "Execute"} (send a new idempotency_key)`,
    requires_user_approval: needsApproval,
  });
  return out;
}
