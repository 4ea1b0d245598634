import type { AnyCapability, Verification } from "../connectors/sdk/define-capability";
import { type ActionResponse, respond } from "./action-response";
import { parseActionState } from "./action-state";
import { type ActionRow, type EffectRow, recordActionEvent, toJson } from "./action-store";
import type { EngineDeps } from "./engine-deps";

/**
 * Hands an effect whose verification decided nothing to a person: nothing is sent, the action
 * becomes `unknown` with its reason in the recovery queue, and an abandoned claim (`pending`)
 * becomes `unknown` (nobody holds it). Conditional on what was read: if another caller settled
 * the action meanwhile, this writes nothing and says so.
 */
export async function queueUndecided(
  deps: EngineDeps,
  capability: AnyCapability,
  row: ActionRow,
  effect: EffectRow,
  v: Extract<Verification, { happened: "undecided" }>,
): Promise<ActionResponse> {
  const state = parseActionState(row.state);
  const checkedAt = new Date().toISOString();
  const reason = `verification undecided: ${v.message}`;
  state.verification = { ...v.details, found: "undecided", checked_at: checkedAt };
  state.recovery = state.recovery ?? { queued_at: checkedAt, reason };
  const moved = await deps.db.$transaction(async (tx) => {
    const action = await tx.action.updateMany({
      where: { id: row.id, version: row.version, status: row.status },
      data: { status: "unknown", state: toJson(state) },
    });
    if (!action.count) return false;
    if (effect.status === "pending")
      await tx.effect.updateMany({
        where: { id: effect.id, status: "pending", attempts: effect.attempts },
        data: { status: "unknown", error: reason },
      });
    await recordActionEvent(tx, {
      actionId: row.id,
      version: row.version,
      kind: "verification_undecided",
      node: row.node,
      data: { ...state.verification, queued_for_recovery: true },
    });
    return true;
  });
  if (!moved) {
    const current = await deps.db.action.findUniqueOrThrow({ where: { id: row.id } });
    return respond(deps, capability, current, {
      outcome: "conflict",
      reason: "changed",
      message: `The action changed while it was being verified (it is now ${current.status}); re-read it`,
      retryable: true,
    });
  }
  return respond(
    deps,
    capability,
    { ...row, status: "unknown", state: state as never },
    {
      outcome: "unknown",
      reason: "queued_for_recovery",
      message: `Whether it happened is not decided (${v.message}), and sending it again could apply it twice (the system takes no idempotency key): nothing was re-sent; a person resolves it in the recovery queue`,
      retryable: false,
    },
  );
}
