import { DEFAULT_APPROVAL_TTL_MS } from "../connectors/sdk/define-capability";
import type { Db } from "../db/client";
import { markApprovalExpired } from "../engine/approval-ledger";
import type { AuditActor, AuditInput } from "../gateway/record-audit-event";

export type ExpireReport = { expired: number };

/**
 * The expiry job: approvals still pending (or granted and never used) past their time are
 * written down as `expired`. Confirm already treats them so (effectiveApprovalStatus); this
 * makes the console's lists and the metrics say it too. markApprovalExpired is conditional on
 * the status, so instances running this together expire each approval once, and only the one
 * that did writes its `approval.expired` audit row.
 */
export async function expireApprovals(
  db: Db,
  audit: (actor: AuditActor, input: AuditInput) => Promise<unknown>,
  options: { now?: number; limit?: number } = {},
): Promise<ExpireReport> {
  const now = new Date(options.now ?? Date.now());
  const due = await db.approval.findMany({
    where: {
      status: { in: ["pending", "approved"] },
      OR: [
        { expiresAt: { lte: now } },
        // Rows from before expiries were stored count from their creation (approvalExpiresAt).
        { expiresAt: null, createdAt: { lte: new Date(now.getTime() - DEFAULT_APPROVAL_TTL_MS) } },
      ],
    },
    select: { id: true, actionId: true, tenantId: true, version: true, status: true },
    orderBy: { createdAt: "asc" },
    take: options.limit ?? 500,
  });
  let expired = 0;
  for (const approval of due) {
    if (!(await markApprovalExpired(db, approval.id))) continue;
    expired++;
    await audit(
      { tenantId: approval.tenantId, userId: null, face: "system" },
      {
        operation: "approval.expired",
        target: `action:${approval.actionId}`,
        arguments: { action_id: approval.actionId, version: approval.version, was: approval.status },
        outcome: "applied",
        message: `The approval of version ${approval.version} ran out; the agent must ask again`,
        latencyMs: 0,
        actionId: approval.actionId,
      },
    );
  }
  return { expired };
}
