import { effectRequestSchema } from "./action-state";
import type { EffectRow } from "./action-store";

/**
 * Whether a claimed effect's lease has run out: past it, a `pending` row is a crashed sender's,
 * not one still on the wire. A row without a readable lease counts as expired (nobody can be
 * said to hold it).
 */
export function leaseExpired(effect: Pick<EffectRow, "request">, now: number = Date.now()): boolean {
  const lease = effectRequestSchema.safeParse(effect.request).data?.lease_until;
  // `!(x > now)` also treats an unparseable date (NaN) as expired.
  return !lease || !(Date.parse(lease) > now);
}

/**
 * Whether recover_action is on an action's list. next_actions offers it and recoverAction runs
 * only when this says so, so the two cannot disagree: the ledger cannot say what happened
 * (`unknown`), says nothing happened (`failed`), or holds a claim whose sender's lease ran out.
 * An `applied` effect is verified, never recovered; a finished action has nothing to recover.
 */
export function recoverOffered(
  action: { status: string },
  effect: Pick<EffectRow, "status" | "request"> | null,
  now: number = Date.now(),
): boolean {
  if (!effect || action.status === "completed" || action.status === "cancelled") return false;
  if (effect.status === "unknown" || effect.status === "failed") return true;
  return effect.status === "pending" && leaseExpired(effect, now);
}
