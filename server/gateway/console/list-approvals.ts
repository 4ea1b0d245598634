import { capabilityRegistry, capabilityTitle } from "../../connectors/connector-registry";
import { approversOf } from "../../connectors/sdk/define-capability";
import type { Db } from "../../db/client";
import { approvalExpiresAt, effectiveApprovalStatus } from "../../engine/approval-ledger";
import { describeApprovers, mayDecide } from "../approvals";
import type { ConsoleContext } from "../console-session";
import { personContext } from "../trusted-context";

export type ApprovalView = {
  id: string;
  actionId: string;
  capability: string;
  /** The capability's declared title. */
  title: string;
  userId: string;
  userName: string | null;
  version: number;
  actionVersion: number;
  summary: unknown;
  /** As it stands now: a pending or granted approval past its time is `expired`. */
  status: string;
  reason: string | null;
  decidedVia: string | null;
  /** Who decided, named: "Alice (member)". */
  decidedBy: string | null;
  createdAt: string;
  decidedAt: string | null;
  expiresAt: string;
  /** Whether the person reading may decide it (the capability's approver policy). */
  canDecide: boolean;
  /** Who may decide, in words ("Alice", "an admin"). */
  approvers: string;
};

/** A member sees approvals that are theirs; support and admins see the tenant's. */
export function approvalScope(ctx: ConsoleContext) {
  return ctx.role === "member" ? { tenantId: ctx.tenantId, userId: ctx.userId } : { tenantId: ctx.tenantId };
}

const DECIDED = ["approved", "rejected", "voided", "expired"];

/**
 * Pending approvals (still valid) or decided ones, newest first, with what will happen (the
 * summary), who decided or who may, and the action's current version.
 */
export async function listApprovals(
  db: Db,
  ctx: ConsoleContext,
  opts: { status?: "pending" | "decided"; limit?: number; offset?: number } = {},
): Promise<ApprovalView[]> {
  const now = new Date();
  const where =
    opts.status === "decided"
      ? {
          OR: [
            { status: { in: DECIDED } },
            // Ran out before anyone decided; nothing wrote it down yet.
            { status: "pending", expiresAt: { lte: now } },
          ],
        }
      : { status: "pending", OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
  const rows = await db.approval.findMany({
    where: { ...approvalScope(ctx), ...where },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: opts.offset ?? 0,
    take: Math.min(opts.limit ?? 100, 500),
    include: { action: { select: { capability: true, version: true, userId: true } } },
  });
  const ids = new Set<string>();
  for (const r of rows) {
    ids.add(r.userId);
    if (r.decidedById) ids.add(r.decidedById);
  }
  const users = await db.user.findMany({
    where: { tenantId: ctx.tenantId, id: { in: [...ids] } },
    select: { id: true, name: true, role: true },
  });
  const byId = new Map(users.map((u) => [u.id, u]));
  const capabilities = capabilityRegistry();
  const person = personContext(ctx, "console");
  return rows.map((r) => {
    const decider = r.decidedById ? byId.get(r.decidedById) : undefined;
    const rule = approversOf(capabilities.get(r.action.capability), r.summary);
    return {
      id: r.id,
      actionId: r.actionId,
      capability: r.action.capability,
      title: capabilityTitle(r.action.capability),
      userId: r.userId,
      userName: byId.get(r.userId)?.name ?? null,
      version: r.version,
      actionVersion: r.action.version,
      summary: r.summary,
      status: effectiveApprovalStatus(r, now.getTime()),
      reason: r.reason,
      decidedVia: r.decidedVia,
      decidedBy: decider ? `${decider.name} (${decider.role})` : null,
      createdAt: r.createdAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
      expiresAt: approvalExpiresAt(r).toISOString(),
      canDecide: mayDecide(person, r.action, rule),
      approvers: describeApprovers(rule, byId.get(r.userId)?.name ?? "the person it is for"),
    };
  });
}

/** How many still-valid approvals wait for this person's decision (the nav badge). */
export async function countPendingApprovals(db: Db, ctx: ConsoleContext): Promise<number> {
  const pending = await listApprovals(db, ctx, { status: "pending", limit: 500 });
  return pending.filter((a) => a.canDecide).length;
}
