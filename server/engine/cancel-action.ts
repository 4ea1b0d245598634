import type { Actor } from "../connectors/sdk/define-capability";
import { type ActionResponse, notFoundAction, respond } from "./action-response";
import { loadAction, loadActionWithCapability, recordActionEvent } from "./action-store";
import { PATCHABLE } from "./allowed-patch";
import { voidApprovals } from "./approval-ledger";
import type { EngineDeps } from "./engine-deps";

/**
 * Ends an open action the user no longer wants: status `cancelled`, its approvals voided, no
 * next_actions. Refused, with the reason, once an effect is claimed or done (an effect that
 * may be under way is verified, never abandoned) or when the action already ended. Conditional
 * on the status and on no claimed effect, so a confirm racing it wins or loses as a whole.
 */
export async function cancelAction(
  deps: EngineDeps,
  actor: Actor,
  actionId: string,
): Promise<ActionResponse> {
  const { db } = deps;
  const found = await loadActionWithCapability(deps, actor, actionId);
  if (!found) return notFoundAction(actionId);
  const { row, capability } = found;
  const effect = await db.effect.findUnique({ where: { actionId: row.id } });
  const refuse = (reason: string, message: string) =>
    respond(deps, capability, row, { outcome: "rejected", reason, message, retryable: false });
  if (effect && effect.status !== "failed")
    return refuse(
      effect.status === "applied" ? "already_done" : "effect_claimed",
      effect.status === "applied"
        ? "The effect already happened; it cannot be cancelled here (an after-sales request can undo a purchase)"
        : "The effect is claimed or its outcome is unknown; verify it instead of cancelling",
    );
  if (!PATCHABLE.includes(row.status))
    return refuse(
      "action_finished",
      row.status === "refused"
        ? "The action already ended at its start (refused); nothing is held, nothing to cancel"
        : `The action is already ${row.status}; nothing to cancel`,
    );
  const updated = await db.action.updateMany({
    where: {
      id: row.id,
      status: { in: PATCHABLE },
      OR: [{ effect: { is: null } }, { effect: { is: { status: "failed" } } }],
    },
    data: { status: "cancelled", version: row.version + 1 },
  });
  if (updated.count === 0) {
    const fresh = (await loadAction(db, actor, row.id)) ?? row;
    return respond(deps, capability, fresh, {
      outcome: "conflict",
      reason: "confirm_in_progress",
      message: "The action changed meanwhile (a confirm claimed it); re-read it",
      retryable: false,
    });
  }
  const next = { ...row, status: "cancelled", version: row.version + 1 };
  await voidApprovals(db, row.id);
  await recordActionEvent(db, {
    actionId: row.id,
    version: next.version,
    kind: "cancelled",
    node: row.node,
    data: {},
  });
  return respond(deps, capability, next, {
    outcome: "applied",
    message: `${capability.title} cancelled; nothing was executed`,
    retryable: false,
  });
}
