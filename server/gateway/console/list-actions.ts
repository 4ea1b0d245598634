import { z } from "zod";
import { capabilityTitle } from "../../connectors/connector-registry";
import { shownSummary } from "../../connectors/sdk/decision-summary";
import type { Db } from "../../db/client";
import { approvalExpiresAt, effectiveApprovalStatus } from "../../engine/approval-ledger";
import { redactSecrets, redactText } from "../../redact-secrets";
import type { ConsoleContext } from "../console-session";
import { primeVault } from "../vault";

const isoDate = z
  .string()
  .trim()
  .max(40)
  .refine((v) => !Number.isNaN(Date.parse(v)), "not a date");

export const actionListFilterSchema = z
  .object({
    status: z.string().trim().max(40).optional(),
    capability: z.string().trim().max(80).optional(),
    /** The person it is for (the customer); members only ever see their own anyway. */
    user: z.string().trim().max(100).optional(),
    /** Started at or after / before (ISO dates or date-times). */
    from: isoDate.optional(),
    to: isoDate.optional(),
    page: z.coerce.number().int().min(1).max(100_000).optional(),
    pageSize: z.coerce.number().int().min(1).max(200).optional(),
  })
  .strict();
export type ActionListFilter = z.infer<typeof actionListFilterSchema>;

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
  /** The agent that started it and the person it acts for (the customer), by name. */
  agentName: string | null;
  userName: string | null;
  /** The capability's own title for it: its summary's, else its declaration's. */
  title: string;
  /** The money involved, from the summary (minor units), when there is any. */
  amount: number | null;
  currency: string | null;
  effectStatus: string | null;
  createdAt: string;
  updatedAt: string;
};

export type ActionPage = { actions: ActionListItem[]; total: number; page: number; pageSize: number };

/**
 * What a person scans an action for: its summary's title and the headline amount when the
 * capability declared one as money (minor units); nothing is read from a key's name.
 */
function summaryAmount(
  state: unknown,
  capability: string,
): { title: string; amount: number | null; currency: string | null } {
  const shown = shownSummary((state as { summary?: unknown } | null)?.summary);
  const head = shown?.headline?.value;
  return {
    title: shown?.title ?? capabilityTitle(capability),
    amount: head?.kind === "money" ? head.minor : null,
    currency: head?.kind === "money" ? head.currency : null,
  };
}

/** A member sees only the actions done for them; nobody sees another tenant's. */
export function actionScope(ctx: ConsoleContext) {
  return ctx.role === "member" ? { tenantId: ctx.tenantId, userId: ctx.userId } : { tenantId: ctx.tenantId };
}

/** One page of actions, newest activity first, with the names and money a person scans for. */
export async function listActions(
  db: Db,
  ctx: ConsoleContext,
  filter: ActionListFilter = {},
): Promise<ActionPage> {
  const pageSize = filter.pageSize ?? 50;
  const page = filter.page ?? 1;
  const where = {
    ...actionScope(ctx),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.capability ? { capability: filter.capability } : {}),
    ...(filter.user && ctx.role !== "member" ? { userId: filter.user } : {}),
    ...(filter.from || filter.to
      ? {
          createdAt: {
            ...(filter.from ? { gte: new Date(filter.from) } : {}),
            ...(filter.to ? { lt: new Date(filter.to) } : {}),
          },
        }
      : {}),
  };
  const [rows, total] = await Promise.all([
    db.action.findMany({
      where,
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      include: { effect: { select: { status: true } } },
    }),
    db.action.count({ where }),
  ]);
  const [agents, users] = await Promise.all([
    db.agent.findMany({
      where: { tenantId: ctx.tenantId, id: { in: rows.flatMap((r) => (r.agentId ? [r.agentId] : [])) } },
      select: { id: true, name: true },
    }),
    db.user.findMany({
      where: { tenantId: ctx.tenantId, id: { in: rows.map((r) => r.userId) } },
      select: { id: true, name: true },
    }),
  ]);
  const agentName = new Map(agents.map((a) => [a.id, a.name]));
  const userName = new Map(users.map((u) => [u.id, u.name]));
  return {
    total,
    page,
    pageSize,
    actions: rows.map((a) => ({
      id: a.id,
      capability: a.capability,
      status: a.status,
      node: a.node,
      version: a.version,
      entityType: a.entityType,
      entityId: a.entityId,
      userId: a.userId,
      agentId: a.agentId,
      agentName: a.agentId ? (agentName.get(a.agentId) ?? null) : null,
      userName: userName.get(a.userId) ?? null,
      ...summaryAmount(a.state, a.capability),
      effectStatus: a.effect?.status ?? null,
      createdAt: a.createdAt.toISOString(),
      updatedAt: a.updatedAt.toISOString(),
    })),
  };
}

export type ActionDetail = ActionListItem & {
  state: unknown;
  events: {
    id: string;
    version: number;
    kind: string;
    node: string;
    data: unknown;
    createdAt: string;
    /** The person behind the step (decided, resolved), named: "Sam (support)". */
    actorName: string | null;
  }[];
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
  await primeVault(db);
  const a = await db.action.findFirst({
    where: { id, ...actionScope(ctx) },
    include: {
      effect: true,
      events: { orderBy: { createdAt: "asc" } },
      approvals: { orderBy: { version: "asc" } },
    },
  });
  if (!a) return null;
  const actorOf = (data: unknown): string | null => {
    const d = data as { by?: unknown; decided_by?: unknown } | null;
    const id = d?.by ?? d?.decided_by;
    return typeof id === "string" ? id : null;
  };
  const deciders = await db.user.findMany({
    where: {
      tenantId: ctx.tenantId,
      id: {
        in: [
          ...a.approvals.flatMap((p) => (p.decidedById ? [p.decidedById] : [])),
          ...a.events.flatMap((e) => {
            const id = actorOf(e.data);
            return id ? [id] : [];
          }),
        ],
      },
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
    agentName: a.agentId
      ? ((
          await db.agent.findFirst({
            where: { id: a.agentId, tenantId: ctx.tenantId },
            select: { name: true },
          })
        )?.name ?? null)
      : null,
    userName:
      (await db.user.findFirst({ where: { id: a.userId, tenantId: ctx.tenantId }, select: { name: true } }))
        ?.name ?? null,
    ...summaryAmount(a.state, a.capability),
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
      actorName: decider(actorOf(e.data)),
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
          error: a.effect.error === null ? null : redactText(a.effect.error),
          request: redactSecrets(a.effect.request),
          response: redactSecrets(a.effect.response),
          createdAt: a.effect.createdAt.toISOString(),
          updatedAt: a.effect.updatedAt.toISOString(),
        }
      : null,
  };
}
