import { DEFAULT_APPROVAL_TTL_MS } from "../connectors/sdk/define-capability";
import type { Db } from "../db/client";
import { publishAttention } from "./attention-events";

/**
 * The engine's side of approvals: creating the pending approval when an action reaches its
 * confirmation node, voiding approvals when the action changes, and expiry. Who may decide
 * lives in the gateway (server/gateway/approvals.ts).
 */

export type ApprovalRow = NonNullable<Awaited<ReturnType<typeof findApproval>>>;

export async function requestApproval(
  db: Db,
  input: {
    actionId: string;
    tenantId: string;
    userId: string;
    version: number;
    digest: string;
    summary: object;
    ttlMs: number;
  },
) {
  // Earlier versions' approvals no longer describe the action.
  await voidApprovals(db, input.actionId, input.version);
  const existing = await db.approval.findUnique({
    where: { actionId_version: { actionId: input.actionId, version: input.version } },
  });
  if (existing) return existing;
  try {
    const created = await db.approval.create({
      data: {
        actionId: input.actionId,
        tenantId: input.tenantId,
        userId: input.userId,
        version: input.version,
        summaryDigest: input.digest,
        summary: input.summary as never,
        status: "pending",
        expiresAt: new Date(Date.now() + input.ttlMs),
      },
    });
    // Written (no transaction around it): now the person can be told.
    publishAttention({ kind: "approval", tenantId: input.tenantId, approvalId: created.id });
    return created;
  } catch {
    // A concurrent request created it first: the unique (action, version) holds one row.
    return db.approval.findUniqueOrThrow({
      where: { actionId_version: { actionId: input.actionId, version: input.version } },
    });
  }
}

/** Voids every undecided or approved approval of the action except the given version's. */
export async function voidApprovals(db: Db, actionId: string, exceptVersion?: number) {
  await db.approval.updateMany({
    where: {
      actionId,
      status: { in: ["pending", "approved"] },
      ...(exceptVersion === undefined ? {} : { version: { not: exceptVersion } }),
    },
    data: { status: "voided" },
  });
}

export async function findApproval(db: Db, actionId: string, version: number) {
  return db.approval.findUnique({ where: { actionId_version: { actionId, version } } });
}

/**
 * The status as it stands now: a pending or granted approval whose time has passed is
 * `expired` (void) even before anything wrote that down. Rows from before expiries existed
 * count from their creation with the default time.
 */
export function effectiveApprovalStatus(
  approval: { status: string; expiresAt: Date | null; createdAt: Date },
  now = Date.now(),
): string {
  if (approval.status !== "pending" && approval.status !== "approved") return approval.status;
  return approvalExpiresAt(approval).getTime() <= now ? "expired" : approval.status;
}

export function approvalExpiresAt(approval: { expiresAt: Date | null; createdAt: Date }): Date {
  return approval.expiresAt ?? new Date(approval.createdAt.getTime() + DEFAULT_APPROVAL_TTL_MS);
}

/**
 * Records that an approval ran out (only while it is still pending or granted). True when this
 * call wrote it, false when it was already decided, expired or voided: conditional on the
 * status, so callers racing on one approval (a confirm, the expiry job on two instances) change
 * it once.
 */
export async function markApprovalExpired(db: Db, approvalId: string): Promise<boolean> {
  const { count } = await db.approval.updateMany({
    where: { id: approvalId, status: { in: ["pending", "approved"] } },
    data: { status: "expired" },
  });
  return count > 0;
}
