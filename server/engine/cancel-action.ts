import type { Actor } from "../connectors/sdk/define-capability";
import { type ActionResponse, notFoundAction, respond } from "./action-response";
import { parseActionState } from "./action-state";
import { loadAction, loadActionWithCapability, recordActionEvent } from "./action-store";
import { PATCHABLE } from "./allowed-patch";
import { voidApprovals } from "./approval-ledger";
import type { EngineDeps } from "./engine-deps";

/**
 * Why an action is ended other than by cancel_action, each only in the one state it names (the
 * update is conditional on it, so nothing else is ever ended this way):
 * - `replacedBy`: a later start of the same change took its place while it was held only for the
 *   user's words on its record (open, nothing claimed: held-for-words.ts);
 * - `declinedVersion`: the person declined, in their MCP host, the approval of this version while
 *   it was still waiting on them (awaiting_approval at that version). No value that reaches an MCP
 *   client ever approves; a decline only withdraws, which moves nothing.
 */
export type CancelWhen = { replacedBy: string } | { declinedVersion: number };

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
  when?: CancelWhen,
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
  const only = onlyWhen(when, row.version);
  if (only && !only.holds(row.status, parseActionState(row.state).held_for_words === true, !!effect))
    return refuse(only.reason, only.refusal(row.status));
  const updated = await db.action.updateMany({
    where: {
      id: row.id,
      status: { in: only ? [only.status] : PATCHABLE },
      ...(only ? { version: row.version } : {}),
      OR: only
        ? [{ effect: { is: null } }]
        : [{ effect: { is: null } }, { effect: { is: { status: "failed" } } }],
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
    kind: only?.event ?? "cancelled",
    node: row.node,
    data: when ?? {},
  });
  return respond(deps, capability, next, {
    outcome: "applied",
    message: only?.message(capability.title) ?? `${capability.title} cancelled; nothing was executed`,
    retryable: false,
  });
}

/** The one state a conditional end takes, and what it says. */
function onlyWhen(when: CancelWhen | undefined, version: number) {
  if (!when) return null;
  if ("replacedBy" in when)
    return {
      status: "open",
      holds: (status: string, heldForWords: boolean, claimed: boolean) =>
        status === "open" && heldForWords && !claimed,
      reason: "not_held_for_words",
      refusal: (status: string) => `The action is ${status}, not held for the user's words; left as it is`,
      event: "replaced",
      message: (title: string) => `${title} replaced by action ${when.replacedBy}; nothing of it had run`,
    };
  return {
    status: "awaiting_approval",
    holds: (status: string, _held: boolean, claimed: boolean) =>
      status === "awaiting_approval" && version === when.declinedVersion && !claimed,
    reason: "not_awaiting_approval",
    refusal: (status: string) =>
      `The approval of version ${when.declinedVersion} no longer waits (the action is ${status}, version ${version}); nothing was withdrawn`,
    event: "declined_in_host",
    message: (title: string) =>
      `Declined in the host, as its MCP client reported: the approval is withdrawn and ${title} cancelled; nothing was executed`,
  };
}
