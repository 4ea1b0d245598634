import type { Actor, AnyCapability, Verification } from "../connectors/sdk/define-capability";
import { SystemUnavailableError } from "../connectors/sdk/system-errors";
import { logger } from "../logger";
import { type ActionResponse, notAllowedNow, notFoundAction, respond, unavailable } from "./action-response";
import { parseActionState } from "./action-state";
import {
  type ActionRow,
  type ActorScope,
  type EffectRow,
  loadActionWithCapability,
  recordActionEvent,
  toJson,
} from "./action-store";
import { effectContext } from "./effect-ledger";
import type { EngineDeps } from "./engine-deps";
import { queueUndecided } from "./queue-undecided";
import { recoverOffered } from "./recover-offered";
import { whatWasDone } from "./what-was-done";

/**
 * Asks the system of record what really happened and records it: an effect found there becomes
 * applied and the action completed; one the ledger calls applied but the system of record does
 * not show goes to the recovery queue for a person.
 */
export async function verifyAction(
  deps: EngineDeps,
  actor: Actor,
  actionId: string,
  scope: ActorScope = "own",
): Promise<ActionResponse> {
  const found = await loadActionWithCapability(deps, actor, actionId, scope);
  if (!found) return notFoundAction(actionId);
  const { row, capability } = found;
  const effect = await deps.db.effect.findUnique({ where: { actionId: row.id } });
  if (!effect) {
    if (row.status === "completed")
      return respond(deps, capability, row, {
        outcome: "applied",
        message: "Nothing to verify: this action had no side effect",
        retryable: false,
        next_actions: [],
      });
    return notAllowedNow(deps, capability, row, "verify_action");
  }
  const v = await lookUpEffect(deps, capability, actor, row, effect);
  if (v.happened === "unavailable")
    return unavailable(`${v.message}; could not verify`, {
      action_id: row.id,
      version: row.version,
      next_actions: [
        { tool: "verify_action", args: { action_id: row.id }, description: "Verify again later" },
      ],
    });
  if (v.happened === "undecided") {
    // The system's own success answer stands; a read-back that decides nothing does not turn
    // it into a mismatch (a soft-deleted record still reads back).
    if (effect.status === "applied")
      return respond(deps, capability, row, {
        outcome: "applied",
        reason: "verification_undecided",
        message: `The system answered that it applied; reading it back decides nothing (${v.message}), so it is not recorded as verified`,
        retryable: false,
      });
    const ctx = await effectContext(deps, capability, actor, parseActionState(row.state), effect.actionKey);
    if (!(await capability.effect?.resendable?.(ctx)) && recoverOffered(row, effect))
      return queueUndecided(deps, capability, row, effect, v);
    return respond(deps, capability, row, {
      outcome: "unknown",
      reason: "verification_undecided",
      message: `Whether it happened is not decided (${v.message})`,
      retryable: true,
    });
  }
  if (v.happened) {
    const next = await recordVerification(deps, row, effect, v, "verified");
    return respond(deps, capability, next, {
      outcome: "applied",
      // What moved, as the person approved it, first (what-was-done.ts).
      message: `${whatWasDone(capability, parseActionState(next.state).summary)}: done and verified`,
      retryable: false,
      next_actions: [],
    });
  }
  if (effect.status === "applied") return verificationMismatch(deps, capability, row, effect, v.details);
  const state = parseActionState(row.state);
  state.verification = { ...v.details, found: false, checked_at: new Date().toISOString() };
  await deps.db.action.update({ where: { id: row.id }, data: { state: toJson(state) } });
  const next = { ...row, state: state as never };
  // The computed next_actions say what retries it: recover where the outcome is still open
  // (it re-sends as-is), confirm where the ledger says nothing was applied (it re-claims with
  // the original key and re-checks the approved values first).
  if (recoverOffered(row, effect))
    return respond(deps, capability, next, {
      outcome: "unknown",
      reason: "not_found_at_system_of_record",
      message: "The system of record shows no such effect; recover_action retries it with the original key",
      retryable: true,
    });
  if (effect.status === "failed")
    return respond(deps, capability, next, {
      outcome: "rejected",
      reason: "not_found_at_system_of_record",
      message:
        "The system of record shows no such effect: nothing was applied; confirm_action retries it with the original key after re-checking what was approved",
      retryable: true,
    });
  return respond(deps, capability, next, {
    outcome: "unknown",
    reason: "effect_in_progress",
    message: "The system of record shows nothing yet and the effect is still being sent; verify again later",
    retryable: true,
  });
}

/**
 * The ledger says applied but the system of record shows nothing. Nothing is re-sent (the
 * ledger's word is the system's answer, and it may be the lookup that is wrong): the action becomes
 * `unknown` and is queued for a person, who records what they find (`resolveRecoveryItem`).
 * A completed action was verified before and is not reopened by a later check.
 */
async function verificationMismatch(
  deps: EngineDeps,
  capability: AnyCapability,
  row: ActionRow,
  effect: EffectRow,
  details: Record<string, unknown>,
): Promise<ActionResponse> {
  const what = `the ledger says applied${effect.externalId ? ` (${effect.externalId})` : ""} but the system of record shows nothing for ${effect.actionKey}`;
  if (row.status === "completed")
    return respond(deps, capability, row, {
      outcome: "unknown",
      reason: "verification_mismatch",
      message: `Verified earlier, but now ${what}; the completed action is left as it is (it is not reopened); check the system of record`,
      retryable: false,
      next_actions: [],
    });
  const state = parseActionState(row.state);
  const checkedAt = new Date().toISOString();
  state.verification = { ...details, found: false, checked_at: checkedAt };
  // Already queued by an earlier mismatch: keep when it was queued.
  state.recovery = state.recovery ?? { queued_at: checkedAt, reason: `verification mismatch: ${what}` };
  // Conditional on the status read: a person's resolution meanwhile wins, and this writes nothing.
  const moved = await deps.db.action.updateMany({
    where: { id: row.id, version: row.version, status: row.status },
    data: { status: "unknown", state: toJson(state) },
  });
  if (!moved.count) {
    const current = await deps.db.action.findUniqueOrThrow({ where: { id: row.id } });
    return respond(deps, capability, current, {
      outcome: "conflict",
      reason: "changed",
      message: `The action changed while it was being verified (it is now ${current.status}); re-read it`,
      retryable: true,
    });
  }
  await recordActionEvent(deps.db, {
    actionId: row.id,
    version: row.version,
    kind: "verification_mismatch",
    node: row.node,
    data: { ...state.verification, was: row.status, queued_for_recovery: true },
  });
  return respond(
    deps,
    capability,
    { ...row, status: "unknown", state: state as never },
    {
      outcome: "unknown",
      reason: "verification_mismatch",
      message: `${what.charAt(0).toUpperCase()}${what.slice(1)}; nothing was re-sent: the action is in the recovery queue for a person to resolve`,
      retryable: false,
    },
  );
}

/** Looks the effect up at the connector's system by action key / external id. */
export async function lookUpEffect(
  deps: EngineDeps,
  capability: AnyCapability,
  actor: Actor,
  row: ActionRow,
  effect: EffectRow,
): Promise<Verification> {
  const ctx = await effectContext(deps, capability, actor, parseActionState(row.state), effect.actionKey);
  try {
    return (await capability.effect?.verify(ctx)) ?? { happened: false, details: {} };
  } catch (err) {
    if (err instanceof SystemUnavailableError) return { happened: "unavailable", message: err.message };
    throw err;
  }
}

/** Records an effect the system shows as happened: ledger applied, action completed and VERIFIED. */
export async function recordVerification(
  deps: EngineDeps,
  row: ActionRow,
  effect: EffectRow,
  v: Verification & { happened: true },
  via: "verified" | "recovered",
): Promise<ActionRow> {
  const { db } = deps;
  const state = parseActionState(row.state);
  state.verification = { ...v.details, checked_at: new Date().toISOString() };
  state.recovery = null;
  if (effect.status !== "applied")
    await db.effect.update({
      where: { id: effect.id },
      data: { status: "applied", externalId: v.externalId ?? effect.externalId, error: null },
    });
  const entityId = row.entityId ?? v.entityId ?? null;
  await db.action.update({
    where: { id: row.id },
    data: { status: "completed", node: "VERIFIED", entityId, state: toJson(state) },
  });
  await recordActionEvent(db, {
    actionId: row.id,
    version: row.version,
    kind: via,
    node: "VERIFIED",
    data: state.verification,
  });
  return { ...row, status: "completed", node: "VERIFIED", entityId, state: state as never };
}

/**
 * Right after the system of record said the effect applied: asks it once and, only where it
 * shows the effect, records it as verified and says so in the same answer, so the agent needs
 * no verify_action of its own. Anything else (not found yet, lookup down) leaves the first
 * answer as it was: a write the system of record does not show a moment later may still be
 * landing, and queueing it for a person on that evidence would be wrong. An `unknown` answer is
 * not looked up here: the agent is told to verify, and verify_action (or the reconcile job)
 * settles it with the whole unknown-effect path (recovery, the queue for a person).
 */
export async function verifyAtOnce(
  deps: EngineDeps,
  capability: AnyCapability,
  actor: Actor,
  actionId: string,
  answer: ActionResponse,
): Promise<ActionResponse> {
  if (answer.outcome !== "applied") return answer;
  try {
    const row = await deps.db.action.findUnique({ where: { id: actionId } });
    const effect = await deps.db.effect.findUnique({ where: { actionId } });
    if (!row || !effect || row.status !== "applied") return answer;
    const v = await lookUpEffect(deps, capability, actor, row, effect);
    if (v.happened !== true) return answer;
    const next = await recordVerification(deps, row, effect, v, "verified");
    return respond(deps, capability, next, {
      outcome: "applied",
      ...(answer.reason ? { reason: answer.reason } : {}),
      message: `${answer.message.replace(/; verify it$/, "")}; verified at the system of record`,
      retryable: false,
      next_actions: [],
    });
  } catch (err) {
    // The effect applied: a failure of this extra check must not read as "nothing happened"
    // (the agent would try again). The answer stays applied, with verify_action next.
    logger.warn(
      { event: "verify_at_once_failed", action_id: actionId, err: String(err) },
      "verify at once failed",
    );
    return answer;
  }
}
