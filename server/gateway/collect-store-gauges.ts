import { DEFAULT_APPROVAL_TTL_MS } from "../connectors/sdk/define-capability";
import type { Db } from "../db/client";
import type { SignpostMetrics } from "../metrics/signpost-metrics";

const EFFECT_STATUSES = ["pending", "applied", "failed", "unknown"];

/**
 * Fills the gauges that describe the shared database rather than this process (effects by
 * status, approvals waiting), right before a scrape. Two grouped counts on indexed columns.
 */
export async function collectStoreGauges(db: Db, metrics: SignpostMetrics): Promise<void> {
  const now = new Date();
  const [effects, pending] = await Promise.all([
    db.effect.groupBy({ by: ["status"], _count: { _all: true } }),
    db.approval.count({
      where: {
        status: "pending",
        OR: [
          { expiresAt: { gt: now } },
          { expiresAt: null, createdAt: { gt: new Date(now.getTime() - DEFAULT_APPROVAL_TTL_MS) } },
        ],
      },
    }),
  ]);
  const counts = new Map(effects.map((row) => [row.status, row._count._all]));
  for (const status of new Set([...EFFECT_STATUSES, ...counts.keys()]))
    metrics.effects.set({ status }, counts.get(status) ?? 0);
  metrics.approvalsPending.set(pending);
}
