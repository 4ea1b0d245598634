import { capabilityTitle } from "../connectors/connector-registry";
import type { Outcome } from "../connectors/sdk/outcome";
import type { Db } from "../db/client";
import { parseActionState } from "../engine/action-state";
import { type ActionRow, type EffectRow, recordActionEvent, toJson } from "../engine/action-store";
import { leaseExpired } from "../engine/recover-offered";
import type { ResolveRecoveryInput } from "./operations/operation-schemas";
import type { TrustedContext } from "./trusted-context";

const staff = (ctx: TrustedContext) =>
  ctx.kind === "person" && (ctx.role === "support" || ctx.role === "admin");

const QUEUED_EFFECT_STATUSES = ["unknown", "pending", "failed"];

/**
 * Whether an action is in the recovery queue: its effect is `unknown`, or stuck `pending` past
 * its lease (a crash between sending and recording), or `failed` while its action is `unknown`,
 * or `applied` while its action is `unknown` and queued by verify_action (the system of record
 * showed nothing: a verification mismatch). The queue lists exactly these and a person may
 * resolve only these: anything else (an applied charge, one still being sent) belongs to the
 * ledger, and overwriting it could set up a second send.
 */
export function inRecoveryQueue(
  effect: Pick<EffectRow, "status" | "request">,
  action: Pick<ActionRow, "status" | "state">,
  now: number = Date.now(),
): boolean {
  switch (effect.status) {
    case "unknown":
      return true;
    case "pending":
      return leaseExpired(effect, now);
    case "failed":
      return action.status === "unknown";
    case "applied":
      // Only one queued for a person (state.recovery: typically a mismatch verify_action
      // found); an applied charge whose action merely lags (a crash before the action was
      // written) is verify_action's to settle, and a completed one is never listed.
      return action.status === "unknown" && parseActionState(action.state).recovery !== null;
    default:
      return false;
  }
}

/** Actions a person must look at (see `inRecoveryQueue`). Support and admins only. */
export async function listRecoveryQueue(db: Db, ctx: TrustedContext) {
  if (!staff(ctx)) return [];
  const effects = await db.effect.findMany({
    where: {
      tenantId: ctx.tenantId,
      OR: [{ status: { in: QUEUED_EFFECT_STATUSES } }, { status: "applied", action: { status: "unknown" } }],
    },
    include: { action: true },
    orderBy: { updatedAt: "desc" },
    take: 500,
  });
  const now = Date.now();
  return effects
    .filter((e) => inRecoveryQueue(e, e.action, now))
    .map((e) => {
      const state = parseActionState(e.action.state);
      return {
        action_id: e.actionId,
        capability: e.action.capability,
        title: capabilityTitle(e.action.capability),
        user_id: e.action.userId,
        agent_id: e.action.agentId,
        effect_status: e.status,
        action_key: e.actionKey,
        kind: e.kind,
        attempts: e.attempts,
        error: e.error,
        summary: state.summary,
        queued_reason:
          state.recovery?.reason ??
          (e.status === "pending" ? "no result recorded after sending (crash?)" : (e.error ?? "unknown")),
        updated_at: e.updatedAt.toISOString(),
      };
    });
}

/** A reason given instead of a verify: long enough to say what was checked. */
export const MIN_RESOLVE_REASON = 10;

/**
 * Whether the last verify supports this resolution: it ran after the effect last changed and
 * found nothing at the system of record ("did not happen"). "Happened" is never supported by a
 * verify here: a verify that finds the effect settles it by itself.
 */
export function verifySupports(
  resolution: "applied" | "not_applied",
  effect: Pick<EffectRow, "updatedAt">,
  action: Pick<ActionRow, "state">,
): boolean {
  if (resolution !== "not_applied") return false;
  const v = parseActionState(action.state).verification;
  const at = typeof v?.checked_at === "string" ? Date.parse(v.checked_at) : Number.NaN;
  return v?.found === false && Number.isFinite(at) && at >= effect.updatedAt.getTime();
}

/** Thrown inside the transaction to roll back the ledger write when the action moved under it. */
class ChangedMeanwhile extends Error {}

/**
 * A person records what they established at the system of record, for an action in the
 * recovery queue only; anything else is a `conflict` carrying the current state.
 */
export async function resolveRecoveryItem(
  db: Db,
  ctx: TrustedContext,
  input: ResolveRecoveryInput,
): Promise<Outcome<Record<string, unknown>>> {
  if (!staff(ctx))
    return {
      outcome: "rejected",
      reason: "support_required",
      message: "Only support or an admin can resolve recovery items",
      retryable: false,
      next_actions: [],
    };
  const effect = await db.effect.findFirst({
    where: { actionId: input.action_id, tenantId: ctx.tenantId },
    include: { action: true },
  });
  if (!effect)
    return {
      outcome: "not_found",
      reason: "action_not_found",
      message: `No effect for action ${input.action_id}`,
      retryable: false,
      next_actions: [],
    };
  const { action } = effect;
  if (!inRecoveryQueue(effect, action))
    return {
      outcome: "conflict",
      reason: "not_in_recovery_queue",
      message: `Action ${action.id} is not in the recovery queue (action ${action.status}, effect ${effect.status}${
        effect.status === "pending" ? " and still being sent" : ""
      }); only what the queue lists can be resolved by hand`,
      retryable: false,
      action_id: action.id,
      version: action.version,
      status: action.status,
      effect: { status: effect.status, action_key: effect.actionKey, attempts: effect.attempts },
      next_actions: [],
    };
  // Marking by hand only after a verify that supports it, or with a reason (audited with the
  // call): "did not happen" on a payment that happened would let it be charged again.
  if (
    !verifySupports(input.resolution, effect, action) &&
    (input.note?.trim().length ?? 0) < MIN_RESOLVE_REASON
  )
    return {
      outcome: "rejected",
      reason: "verify_first",
      message: `Verify with the system of record first, or give the reason you resolve this without a verify that shows it (at least ${MIN_RESOLVE_REASON} characters; it is kept in the audit log)`,
      retryable: false,
      action_id: action.id,
      next_actions: [],
    };
  const status = input.resolution === "applied" ? "applied" : "failed";
  // One transaction: a failure half-way must not leave the ledger settled and the action not.
  const resolved = await db
    .$transaction(async (tx) => {
      // Conditional on what was read (a recoverer's claim bumps attempts): a concurrent
      // recover or settlement wins, and this resolution writes nothing.
      const updated = await tx.effect.updateMany({
        where: { id: effect.id, status: effect.status, attempts: effect.attempts },
        data: { status, error: input.note ?? `resolved by a person: ${input.resolution}` },
      });
      if (!updated.count) return false;
      const state = parseActionState(action.state);
      state.recovery = null;
      const moved = await tx.action.updateMany({
        where: { id: action.id, version: action.version, status: action.status },
        data: { status: input.resolution === "applied" ? "completed" : "failed", state: toJson(state) },
      });
      if (!moved.count) throw new ChangedMeanwhile();
      await recordActionEvent(tx, {
        actionId: action.id,
        version: action.version,
        kind: "recovery_resolved",
        node: action.node,
        data: { resolution: input.resolution, note: input.note ?? null, by: ctx.userId },
      });
      return true;
    })
    .catch((err) => {
      if (err instanceof ChangedMeanwhile) return false;
      throw err;
    });
  if (!resolved)
    return {
      outcome: "conflict",
      reason: "changed",
      message: "The effect changed meanwhile; reload",
      retryable: true,
      next_actions: [],
    };
  return {
    outcome: "applied",
    message: `Recorded as ${input.resolution}`,
    retryable: false,
    action_id: action.id,
    next_actions: [],
  };
}
