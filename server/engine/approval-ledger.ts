import type { Db } from "../db/client";

/**
 * The engine's side of approvals: creating the pending approval when an action reaches its
 * confirmation node, and voiding approvals when the action changes. Who may decide lives in
 * the gateway (server/gateway/approvals.ts).
 */

export async function requestApproval(
  db: Db,
  input: {
    actionId: string;
    tenantId: string;
    userId: string;
    version: number;
    digest: string;
    summary: object;
  },
) {
  // Earlier versions' approvals no longer describe the action.
  await voidApprovals(db, input.actionId, input.version);
  const existing = await db.approval.findUnique({
    where: { actionId_version: { actionId: input.actionId, version: input.version } },
  });
  if (existing) return existing;
  try {
    return await db.approval.create({
      data: {
        actionId: input.actionId,
        tenantId: input.tenantId,
        userId: input.userId,
        version: input.version,
        summaryDigest: input.digest,
        summary: input.summary as never,
        status: "pending",
      },
    });
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
