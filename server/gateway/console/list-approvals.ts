import type { Db } from "../../db/client";
import type { ConsoleContext } from "../console-session";

export type ApprovalView = {
  id: string;
  actionId: string;
  capability: string;
  userId: string;
  userName: string | null;
  version: number;
  actionVersion: number;
  summary: unknown;
  status: string;
  reason: string | null;
  decidedVia: string | null;
  createdAt: string;
  decidedAt: string | null;
};

/** A member sees approvals that need them; support and admins see the tenant's. */
export function approvalScope(ctx: ConsoleContext) {
  return ctx.role === "member" ? { tenantId: ctx.tenantId, userId: ctx.userId } : { tenantId: ctx.tenantId };
}

/** Pending approvals, newest first, with what will happen (the summary) and the action's current version. */
export async function listApprovals(
  db: Db,
  ctx: ConsoleContext,
  opts: { status?: "pending" | "decided"; limit?: number } = {},
): Promise<ApprovalView[]> {
  const status = opts.status === "decided" ? { in: ["approved", "rejected", "voided"] } : "pending";
  const rows = await db.approval.findMany({
    where: { ...approvalScope(ctx), status },
    orderBy: { createdAt: "desc" },
    take: Math.min(opts.limit ?? 100, 500),
    include: { action: { select: { capability: true, version: true } } },
  });
  const users = await db.user.findMany({
    where: { tenantId: ctx.tenantId, id: { in: [...new Set(rows.map((r) => r.userId))] } },
    select: { id: true, name: true },
  });
  const names = new Map(users.map((u) => [u.id, u.name]));
  return rows.map((r) => ({
    id: r.id,
    actionId: r.actionId,
    capability: r.action.capability,
    userId: r.userId,
    userName: names.get(r.userId) ?? null,
    version: r.version,
    actionVersion: r.action.version,
    summary: r.summary,
    status: r.status,
    reason: r.reason,
    decidedVia: r.decidedVia,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
  }));
}

export async function countPendingApprovals(db: Db, ctx: ConsoleContext): Promise<number> {
  if (ctx.role === "support") return 0;
  return db.approval.count({ where: { ...approvalScope(ctx), status: "pending" } });
}
