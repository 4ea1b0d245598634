import { z } from "zod";
import type { Db } from "../../db/client";
import { approvalExpiresAt, effectiveApprovalStatus } from "../../engine/approval-ledger";
import type { ConsoleContext } from "../console-session";
import { redactSecrets } from "../redact-secrets";

export const actionListFilterSchema = z
  .object({
    status: z.string().trim().max(40).optional(),
    capability: z.string().trim().max(80).optional(),
  })
  .strict();

export type ActionListItem = {
  id: string;
  capability: string;
  status: string;
  node: string;
  version: number;
  entityType: string | null;
  entityId: string | null;
  userId: string;
  agentId: string | null;
  effectStatus: string | null;
  createdAt: string;
  updatedAt: string;
};

/** A member sees only the actions done for them; nobody sees another tenant's. */
export function actionScope(ctx: ConsoleContext) {
  return ctx.role === "member" ? { tenantId: ctx.tenantId, userId: ctx.userId } : { tenantId: ctx.tenantId };
}

export async function listActions(
  db: Db,
  ctx: ConsoleContext,
  filter: z.infer<typeof actionListFilterSchema> = {},
  limit = 200,
): Promise<ActionListItem[]> {
  const rows = await db.action.findMany({
    where: {
      ...actionScope(ctx),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.capability ? { capability: filter.capability } : {}),
    },
    orderBy: { updatedAt: "desc" },
    take: Math.min(limit, 1000),
    include: { effect: { select: { status: true } } },
  });
  return rows.map((a) => ({
    id: a.id,
    capability: a.capability,
    status: a.status,
    node: a.node,
    version: a.version,
    entityType: a.entityType,
    entityId: a.entityId,
    userId: a.userId,
    agentId: a.agentId,
    effectStatus: a.effect?.status ?? null,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  }));
}

export type ActionDetail = ActionListItem & {
  state: unknown;
  events: { id: string; version: number; kind: string; node: string; data: unknown; createdAt: string }[];
  approvals: {
    id: string;
    version: number;
    status: string;
    summary: unknown;
    summaryDigest: string;
    decidedById: string | null;
    /** Who decided, named: "Alice (member)". */
    decidedBy: string | null;
    decidedVia: string | null;
    reason: string | null;
    createdAt: string;
    decidedAt: string | null;
    expiresAt: string;
  }[];
  effect: {
    kind: string;
    status: string;
    actionKey: string;
    externalId: string | null;
    attempts: number;
    error: string | null;
    request: unknown;
    response: unknown;
    createdAt: string;
    updatedAt: string;
  } | null;
};

/** One action with its timeline, approvals and effect ledger; another tenant's (or person's, for members) is null. */
export async function getActionDetail(db: Db, ctx: ConsoleContext, id: string): Promise<ActionDetail | null> {
  const a = await db.action.findFirst({
    where: { id, ...actionScope(ctx) },
    include: {
      effect: true,
      events: { orderBy: { createdAt: "asc" } },
      approvals: { orderBy: { version: "asc" } },
    },
  });
  if (!a) return null;
  const deciders = await db.user.findMany({
    where: {
      tenantId: ctx.tenantId,
      id: { in: a.approvals.flatMap((p) => (p.decidedById ? [p.decidedById] : [])) },
    },
    select: { id: true, name: true, role: true },
  });
  const decider = (id: string | null) => {
    const u = deciders.find((d) => d.id === id);
    return u ? `${u.name} (${u.role})` : null;
  };
  return {
    id: a.id,
    capability: a.capability,
    status: a.status,
    node: a.node,
    version: a.version,
    entityType: a.entityType,
    entityId: a.entityId,
    userId: a.userId,
    agentId: a.agentId,
    effectStatus: a.effect?.status ?? null,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
    // What the agent sent is kept as sent for the engine; people see it redacted, as in the monitor.
    state: redactSecrets(a.state),
    events: a.events.map((e) => ({
      id: e.id,
      version: e.version,
      kind: e.kind,
      node: e.node,
      data: redactSecrets(e.data),
      createdAt: e.createdAt.toISOString(),
    })),
    approvals: a.approvals.map((p) => ({
      id: p.id,
      version: p.version,
      status: effectiveApprovalStatus(p),
      // Support's view; the confirm page shows the person the summary they approve, unredacted.
      summary: redactSecrets(p.summary),
      summaryDigest: p.summaryDigest,
      decidedById: p.decidedById,
      decidedBy: decider(p.decidedById),
      expiresAt: approvalExpiresAt(p).toISOString(),
      decidedVia: p.decidedVia,
      reason: p.reason,
      createdAt: p.createdAt.toISOString(),
      decidedAt: p.decidedAt?.toISOString() ?? null,
    })),
    effect: a.effect
      ? {
          kind: a.effect.kind,
          status: a.effect.status,
          actionKey: a.effect.actionKey,
          externalId: a.effect.externalId,
          attempts: a.effect.attempts,
          error: a.effect.error,
          request: a.effect.request,
          response: a.effect.response,
          createdAt: a.effect.createdAt.toISOString(),
          updatedAt: a.effect.updatedAt.toISOString(),
        }
      : null,
  };
}
