import type { Db } from "../db/client";
import { parseActionState } from "../engine/action-state";
import { leaseExpired } from "../engine/recover-offered";
import type { GatewayOutcome } from "../gateway/create-gateway";

export type ReconcileOptions = {
  /** Most actions looked at per run: a backlog is worked off over several runs, oldest first. */
  limit?: number;
  /** An action the system of record did not show is asked again only after this long. */
  recheckAfterMs?: number;
  now?: number;
};

export type ReconcileReport = {
  checked: number;
  /** Found at the system of record: the action is completed now. */
  applied: number;
  /** Not there: noted on the action, left for recover_action (the original key) or a person. */
  notFound: number;
  /** The system of record did not answer: asked again next run. */
  unavailable: number;
  other: number;
};

/**
 * The reconcile job: every effect whose outcome nobody recorded — `unknown`, or `pending` past
 * its sender's lease (a crash, a killed instance) — is looked up at the system of record by its
 * action key through the gateway's verify (`reconcile`), which records what it says. Nothing is
 * ever re-sent: re-sending is recover_action's, with the original key, or a person's.
 *
 * Idempotent and safe on every instance at once: verify only writes what the system of record
 * says (a second look writes the same), a pending effect whose lease still runs is not touched
 * (its sender may be on the wire), and an action that was checked and not found waits
 * `recheckAfterMs` before it is asked about again.
 */
export async function reconcileEffects(
  db: Db,
  reconcile: (actionId: string) => Promise<GatewayOutcome>,
  options: ReconcileOptions = {},
): Promise<ReconcileReport> {
  const now = options.now ?? Date.now();
  const limit = options.limit ?? 50;
  const recheckAfterMs = options.recheckAfterMs ?? 10 * 60_000;
  const candidates = await db.effect.findMany({
    where: {
      status: { in: ["unknown", "pending"] },
      action: { status: { notIn: ["completed", "cancelled"] } },
    },
    select: { actionId: true, status: true, request: true, action: { select: { state: true } } },
    orderBy: { updatedAt: "asc" },
    take: limit * 4,
  });
  const due = candidates
    .filter((e) => e.status === "unknown" || leaseExpired(e, now))
    .filter((e) => {
      const checked = parseActionState(e.action.state).verification as
        | { found?: boolean; checked_at?: string }
        | null
        | undefined;
      if (checked?.found !== false || !checked.checked_at) return true;
      return now - Date.parse(checked.checked_at) >= recheckAfterMs;
    })
    .slice(0, limit);
  const report: ReconcileReport = { checked: 0, applied: 0, notFound: 0, unavailable: 0, other: 0 };
  for (const effect of due) {
    const out = await reconcile(effect.actionId);
    report.checked++;
    if (out.outcome === "applied") report.applied++;
    else if (out.outcome === "temporarily_unavailable") report.unavailable++;
    else if (out.reason === "not_found_at_system_of_record" || out.reason === "effect_in_progress")
      report.notFound++;
    else report.other++;
  }
  return report;
}
