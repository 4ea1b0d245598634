import { z } from "zod";
import { type Db, providerOfDb } from "../../db/client";
import type { DbProvider } from "../../db/database-url";
import { redactSecrets, redactText } from "../../redact-secrets";
import type { ConsoleContext } from "../console-session";
import { primeVault } from "../vault";

export const auditFilterSchema = z
  .object({
    agentId: z.string().trim().max(100).optional(),
    face: z.string().trim().max(40).optional(),
    operation: z.string().trim().max(100).optional(),
    outcome: z.string().trim().max(40).optional(),
    /** A capability id or a URI (substring). */
    target: z.string().trim().max(300).optional(),
    /** Free text across operation, target, capability and message. */
    q: z.string().trim().max(200).optional(),
    /** The time range: rows at or after `from`, before `to` (ISO date-times). */
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export type AuditEventView = {
  seq: number;
  createdAt: string;
  face: string;
  operation: string;
  target: string | null;
  capability: string | null;
  agentId: string | null;
  userId: string | null;
  decision: string | null;
  outcome: string;
  message: string | null;
  latencyMs: number;
  actionId: string | null;
  actionKey: string | null;
  /** The HTTP request the row came with: the same id is on the server's log lines. */
  requestId: string | null;
  arguments: unknown;
};

// Defence in depth: the gateway redacts before writing, but the console never shows anything
// that looks like a credential, whatever a writer forgot (or wrote before redaction improved).
export function toAuditEventView(row: {
  seq: number;
  createdAt: Date;
  face: string;
  operation: string;
  target: string | null;
  capability: string | null;
  agentId: string | null;
  userId: string | null;
  decision: string | null;
  outcome: string;
  message: string | null;
  latencyMs: number;
  actionId: string | null;
  actionKey: string | null;
  requestId?: string | null;
  arguments: unknown;
}): AuditEventView {
  return {
    seq: row.seq,
    createdAt: row.createdAt.toISOString(),
    face: row.face,
    operation: row.operation,
    target: row.target === null ? null : redactText(row.target),
    capability: row.capability,
    agentId: row.agentId,
    userId: row.userId,
    decision: row.decision,
    outcome: row.outcome,
    message: row.message === null ? null : redactText(row.message),
    latencyMs: row.latencyMs,
    actionId: row.actionId === null ? null : redactText(row.actionId),
    actionKey: row.actionKey,
    requestId: row.requestId ?? null,
    arguments: redactSecrets(row.arguments),
  };
}

/** Members see only what was done for them; support and admins see the whole tenant. */
export function auditScope(ctx: ConsoleContext) {
  return ctx.role === "member" ? { tenantId: ctx.tenantId, userId: ctx.userId } : { tenantId: ctx.tenantId };
}

export function filterWhere(filter: AuditFilter, provider: DbProvider) {
  // Text filters ignore case on both providers: SQLite's LIKE already does (ASCII), PostgreSQL
  // needs ILIKE, which Prisma offers only there (SQLite's client rejects `mode`, hence the
  // fallback to plain `contains` for a client whose provider is not recorded).
  const contains = (value: string) =>
    provider === "postgres" ? { contains: value, mode: "insensitive" } : { contains: value };
  const and: object[] = [];
  if (filter.agentId) and.push({ agentId: filter.agentId });
  if (filter.face) and.push({ face: filter.face });
  if (filter.operation) and.push({ operation: contains(filter.operation) });
  if (filter.outcome) and.push({ outcome: filter.outcome });
  if (filter.from) and.push({ createdAt: { gte: new Date(filter.from) } });
  if (filter.to) and.push({ createdAt: { lt: new Date(filter.to) } });
  if (filter.target)
    and.push({ OR: [{ target: contains(filter.target) }, { capability: contains(filter.target) }] });
  if (filter.q)
    and.push({
      OR: [
        { operation: contains(filter.q) },
        { target: contains(filter.q) },
        { capability: contains(filter.q) },
        { message: contains(filter.q) },
        { actionId: contains(filter.q) },
      ],
    });
  return and;
}

/**
 * Pages through the audit table. `afterSeq` reads forward (oldest first: the live stream);
 * otherwise it reads backward from `beforeSeq` or from the newest row (newest first: backfill).
 */
export async function listAuditEvents(
  db: Db,
  ctx: ConsoleContext,
  opts: { filter?: AuditFilter; afterSeq?: number; beforeSeq?: number; limit?: number },
): Promise<AuditEventView[]> {
  // Rows and exports are scrubbed of the vault's values even before this process used them.
  await primeVault(db);
  const limit = Math.min(Math.max(opts.limit ?? 200, 1), 1000);
  const and: object[] = [auditScope(ctx), ...filterWhere(opts.filter ?? {}, providerOfDb(db) ?? "sqlite")];
  if (opts.afterSeq !== undefined) {
    and.push({ seq: { gt: opts.afterSeq } });
    const rows = await db.auditEvent.findMany({ where: { AND: and }, orderBy: { seq: "asc" }, take: limit });
    return rows.map(toAuditEventView);
  }
  if (opts.beforeSeq !== undefined) and.push({ seq: { lt: opts.beforeSeq } });
  const rows = await db.auditEvent.findMany({ where: { AND: and }, orderBy: { seq: "desc" }, take: limit });
  return rows.map(toAuditEventView);
}

/** The newest seq visible to this person (0 when none): where a live stream starts when nothing came before. */
export async function latestAuditSeq(db: Db, ctx: ConsoleContext): Promise<number> {
  const row = await db.auditEvent.findFirst({
    where: auditScope(ctx),
    orderBy: { seq: "desc" },
    select: { seq: true },
  });
  return row?.seq ?? 0;
}

export type AuditVolume = {
  from: string;
  to: string;
  bucketMs: number;
  /** Bucket starts (ms since the epoch), operations in each, and those whose outcome is an error. */
  buckets: { at: number; total: number; errors: number }[];
  /** True when the range held more rows than were counted (the chart then shows the newest). */
  truncated: boolean;
};

/** Outcomes that mean something went wrong on the way, not the agent's input. */
export const ERROR_OUTCOMES = ["temporarily_unavailable", "unknown", "conflict"];
const STEPS = [60_000, 5 * 60_000, 15 * 60_000, 3_600_000, 6 * 3_600_000, 86_400_000];
const MAX_COUNTED = 50_000;

/**
 * Operations and errors over a time range in about 30–60 buckets, for the monitor's chart. It
 * counts rows (time and outcome only), bounded: a range with more than 50,000 rows counts the
 * newest and says so.
 */
export async function auditVolume(
  db: Db,
  ctx: ConsoleContext,
  filter: AuditFilter,
  range: { from: Date; to: Date },
): Promise<AuditVolume> {
  const span = Math.max(60_000, range.to.getTime() - range.from.getTime());
  const bucketMs = STEPS.find((s) => span / s <= 60) ?? 86_400_000;
  const start = Math.floor(range.from.getTime() / bucketMs) * bucketMs;
  const and: object[] = [
    auditScope(ctx),
    ...filterWhere({ ...filter, from: undefined, to: undefined }, providerOfDb(db) ?? "sqlite"),
    { createdAt: { gte: range.from, lt: range.to } },
  ];
  const rows = await db.auditEvent.findMany({
    where: { AND: and },
    select: { createdAt: true, outcome: true },
    orderBy: { seq: "desc" },
    take: MAX_COUNTED + 1,
  });
  const count = Math.ceil((range.to.getTime() - start) / bucketMs);
  const buckets = Array.from({ length: count }, (_, i) => ({
    at: start + i * bucketMs,
    total: 0,
    errors: 0,
  }));
  for (const row of rows.slice(0, MAX_COUNTED)) {
    const b = buckets[Math.floor((row.createdAt.getTime() - start) / bucketMs)];
    if (!b) continue;
    b.total++;
    if (ERROR_OUTCOMES.includes(row.outcome)) b.errors++;
  }
  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    bucketMs,
    buckets,
    truncated: rows.length > MAX_COUNTED,
  };
}
