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
 * only when this says so, so the two cannot disagree. Recover re-sends what was confirmed
 * without confirm's re-check of the approved values, which is right only where the first send
 * may still be out there: the ledger cannot say what happened (`unknown`), a claim whose
 * sender's lease ran out (`pending`), or a `failed` effect whose action is still `unknown` (a
 * recovery that recorded its send's answer but died before the action learned it; the recovery
 * queue lists it). An ordinary `failed` effect means nothing was applied: confirm_action retries
 * it with the original key and re-validates first. An `applied` effect is verified, never
 * recovered (a mismatch is a person's); a finished action has nothing to recover.
 */
export function recoverOffered(
  action: { status: string },
  effect: Pick<EffectRow, "status" | "request"> | null,
  now: number = Date.now(),
): boolean {
  if (!effect || action.status === "completed" || action.status === "cancelled") return false;
  switch (effect.status) {
    case "unknown":
      return true;
    case "pending":
      return leaseExpired(effect, now);
    case "failed":
      return action.status === "unknown";
    default:
      return false;
  }
}
