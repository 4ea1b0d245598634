import type { Actor } from "../connectors/sdk/define-capability";
import { type ActionResponse, notAllowedNow, notFoundAction, respond, unavailable } from "./action-response";
import { effectRequestSchema, parseActionState } from "./action-state";
import { type ActorScope, loadActionWithCapability, toJson } from "./action-store";
import { effectContext, executeEffect, existingEffectOutcome, leaseUntil } from "./effect-ledger";
import type { EngineDeps } from "./engine-deps";
import { queueUndecided } from "./queue-undecided";
import { leaseExpired, recoverOffered } from "./recover-offered";
import { lookUpEffect, recordVerification } from "./verify-action";

/**
 * Reconciles effects whose outcome is open (`unknown`, abandoned `pending`, or `failed` under an
 * action still `unknown`; see `recoverOffered`): verify first, then record what happened, or
 * re-send with the original key, or queue the action for a person. An ordinary failed effect is
 * confirm_action's to retry (it re-checks the approved values first).
 */
export async function recoverAction(
  deps: EngineDeps,
  actor: Actor,
  actionId: string,
  scope: ActorScope = "own",
): Promise<ActionResponse> {
  const { db } = deps;
  const found = await loadActionWithCapability(deps, actor, actionId, scope);
  if (!found) return notFoundAction(actionId);
  const { row, capability } = found;
  const effect = await db.effect.findUnique({ where: { actionId: row.id } });
  if (!effect) return notAllowedNow(deps, capability, row, "recover_action");
  // Both answers below change nothing; they only say why there is nothing to recover yet.
  if (effect.status === "applied" && row.status === "completed")
    return respond(deps, capability, row, {
      outcome: "applied",
      message: "Nothing to recover: the effect is applied and verified",
      retryable: false,
    });
  const request = effectRequestSchema.safeParse(effect.request).data;
  // A pending effect inside its lease may still be on the wire (another recoverer's or
  // confirm's send): wait for it as a loser of the claim does, and answer with its outcome;
  // only a send that stays pending all that time (its sender may have died) is "in progress".
  if (effect.status === "pending" && !leaseExpired(effect)) {
    const settled = await waitWhilePending(deps, row.id, capability.policy.timeoutMs * 2);
    if (settled?.status !== "pending")
      return existingEffectOutcome(deps, capability, actor, row.id, request?.idempotency_key ?? "", 0, scope);
    return respond(deps, capability, row, {
      outcome: "unknown",
      reason: "effect_in_progress",
      message: `The effect is still being sent (until ${request?.lease_until}); verify after that`,
      retryable: true,
    });
  }
  // Only what next_actions offers (the same predicate): an applied-but-unverified effect is
  // verify_action's to settle, never recorded here as "recovered".
  if (!recoverOffered(row, effect)) {
    // Another recoverer's send settled it after this call was offered recover (or while it was
    // reading): this call lost the race, and its answer is that send's, as a claim loser's is.
    if (await settledByRecovery(deps, row.id, effect.actionKey))
      return existingEffectOutcome(deps, capability, actor, row.id, request?.idempotency_key ?? "", 0, scope);
    const refused = await notAllowedNow(deps, capability, row, "recover_action");
    // A verification mismatch: the ledger's "applied" was the system's answer, so re-sending is
    // not recovery's call; a person settles it from the recovery queue.
    if (effect.status === "applied" && row.status === "unknown")
      refused.message = `${refused.message}. The ledger says applied but the system of record showed nothing: a person resolves it in the recovery queue`;
    return refused;
  }
  // Verify first: never send again what may already have happened.
  const v = await lookUpEffect(deps, capability, actor, row, effect);
  if (v.happened === "unavailable")
    return unavailable(`${v.message}; could not verify, nothing was retried`, {
      action_id: row.id,
      version: row.version,
    });
  // Sending again on an answer that decides nothing is safe only where the system deduplicates
  // by the action key; anything else is a person's call.
  if (v.happened === "undecided") {
    const ctx = await effectContext(deps, capability, actor, parseActionState(row.state), effect.actionKey);
    if (!(await capability.effect?.resendable?.(ctx)))
      return queueUndecided(deps, capability, row, effect, v);
  } else if (v.happened) {
    const next = await recordVerification(deps, row, effect, v, "recovered");
    return respond(deps, capability, next, {
      outcome: "applied",
      message: "Recovered: the effect had happened; it is now recorded",
      retryable: false,
      next_actions: [],
    });
  }
  // Proven absent (or undecided where the key deduplicates): retry with the ORIGINAL key; the
  // conditional update admits one recoverer.
  const claimed = await db.effect.updateMany({
    where: { id: effect.id, status: effect.status, attempts: effect.attempts },
    data: {
      status: "pending",
      attempts: { increment: 1 },
      request: toJson({ ...request, lease_until: leaseUntil(capability) }),
    },
  });
  if (claimed.count === 0)
    return existingEffectOutcome(
      deps,
      capability,
      actor,
      row.id,
      request?.idempotency_key ?? "",
      capability.policy.timeoutMs * 2,
      scope,
    );
  const claimedEffect = await db.effect.findUniqueOrThrow({ where: { id: effect.id } });
  return executeEffect(deps, capability, actor, row, claimedEffect, "recovered");
}

/** The action's effect once it is no longer `pending`, or as it stands when `waitMs` runs out. */
async function waitWhilePending(deps: EngineDeps, actionId: string, waitMs: number) {
  const deadline = Date.now() + waitMs;
  let effect = await deps.db.effect.findUnique({ where: { actionId } });
  while (effect?.status === "pending" && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    effect = await deps.db.effect.findUnique({ where: { actionId } });
  }
  return effect;
}

/**
 * Whether a recovery applied this key's effect and the action still stands where it left it
 * (applied, awaiting verification). The ledger, the action and the "recovered" step are written
 * in one transaction (recordEffectResult), so the action read here is fresh: this holds for a
 * recover that read the action before the winner settled it as well as for one that came later.
 */
async function settledByRecovery(deps: EngineDeps, actionId: string, actionKey: string): Promise<boolean> {
  const [action, effect] = await Promise.all([
    deps.db.action.findUnique({ where: { id: actionId } }),
    deps.db.effect.findUnique({ where: { actionId } }),
  ]);
  if (action?.status !== "applied" || effect?.status !== "applied" || effect.actionKey !== actionKey)
    return false;
  const steps = await deps.db.actionEvent.findMany({ where: { actionId, kind: "recovered" } });
  return steps.some((s) => {
    const data = (s.data ?? {}) as { effect?: unknown; key?: unknown };
    return data.effect === "applied" && data.key === actionKey;
  });
}
