import type { Db } from "../db/client";
import { type AuditEventRow, type AuditRowData, preparedStatements } from "../db/prepared-statements";
import { logger } from "../logger";
import { signpostMetrics } from "../metrics/signpost-metrics";
import { redactSecrets, redactText } from "../redact-secrets";
import { inSpan } from "../telemetry/tracing";
import { AUDIT_CHANNEL } from "./audit-wakeups";
import { type PublishedAuditEvent, publishAuditEvent } from "./event-stream";
import type { TrustedContext } from "./trusted-context";

// What an audit row keeps of a call's arguments. Refused calls are audited with the arguments
// as sent (that is what support needs to see), so the caller controls their size: the row and
// the live monitor get a bounded copy that still names the fields it kept and says what it cut.
// 200 characters shows any real id, URI or reason; 50 entries and 6 levels cover every input
// schema; the overall budget caps what 50 entries × 6 levels alone would still allow.
const MAX_STRING = 200;
const MAX_KEY = 64;
const MAX_ENTRIES = 50;
const MAX_DEPTH = 6;
const MAX_CHARS = 4000;

/**
 * A bounded copy of (already redacted) arguments: long strings and keys cut with a `…[+N chars]`
 * marker; an object or array past MAX_ENTRIES entries, or reached after about MAX_CHARS
 * characters, ends with a `…` entry saying how many were left out; nesting past MAX_DEPTH is `[…]`.
 */
function boundArguments(value: unknown): unknown {
  let left = MAX_CHARS;
  const cut = (s: string, max: number) =>
    s.length > max ? `${s.slice(0, max)}…[+${s.length - max} chars]` : s;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") {
      const kept = cut(v, MAX_STRING);
      left -= kept.length + 3;
      return kept;
    }
    if (!v || typeof v !== "object") {
      left -= 8;
      return v;
    }
    if (depth >= MAX_DEPTH) {
      left -= 6;
      return "[…]";
    }
    if (Array.isArray(v)) {
      const kept: unknown[] = [];
      for (const item of v) {
        if (kept.length >= MAX_ENTRIES || left <= 0) {
          kept.push(`…[+${v.length - kept.length} items]`);
          break;
        }
        kept.push(walk(item, depth + 1));
      }
      return kept;
    }
    const entries = Object.entries(v as Record<string, unknown>);
    const out: Record<string, unknown> = {};
    let n = 0;
    for (const [key, item] of entries) {
      if (n >= MAX_ENTRIES || left <= 0) {
        out["…"] = `[+${entries.length - n} keys]`;
        break;
      }
      const k = cut(key, MAX_KEY);
      left -= k.length + 4;
      out[k] = walk(item, depth + 1);
      n++;
    }
    return out;
  };
  return walk(value, 0);
}

/**
 * Who an audit row is about: a caller's trusted context, or an operator at the command line and
 * the background jobs (no user: `userId` null, face `cli` or `system`).
 */
export type AuditActor = Pick<TrustedContext, "tenantId" | "agentId" | "face" | "requestId"> & {
  userId: string | null;
};

export interface AuditInput {
  /** `domain.verb`, e.g. `action.started`, `approval.approved`, `permission.granted`. */
  operation: string;
  target?: string | null;
  capability?: string | null;
  arguments?: unknown;
  /** Policy decision, with the rule that decided: `allow`, `deny:rule_id`, `ask:default`. */
  decision?: string | null;
  outcome: string;
  message?: string | null;
  latencyMs: number;
  actionId?: string | null;
  actionKey?: string | null;
}

/**
 * Inserts the row with the tenant's next number from its AuditCounter (prepared-statements.ts):
 * numbers are gapless per tenant and commit in order (the counter row stays locked until the
 * insert commits; on SQLite the one writer's lock), and one tenant's numbers say nothing about
 * another's activity.
 *
 * Rows are committed in groups on both providers: a row that arrives while a commit is in flight
 * waits for it and then goes with every other row that waited, so a burst pays one commit (and one
 * WAL sync) instead of one each, and a tenant's counter row is locked once per group, not once per
 * row. A commit waits for the end of the event loop's current turn, so rows of calls answered
 * together go together on SQLite too, whose statements run synchronously. Each caller still gets
 * its row only once the commit that carries it is done: nothing is answered before its row is
 * durable. A failed commit fails every row in it, as a failed insert
 * failed its own call before. An idle writer commits a lone row at once: no timer, no added wait.
 */
function insertNumbered(db: Db, data: AuditRowData): Promise<AuditEventRow> {
  return groupCommit(db)(data);
}

/** Most rows one commit carries: a burst is cut into commits of this size. */
const MAX_GROUP = 64;

type Waiting = { data: AuditRowData; resolve(row: AuditEventRow): void; reject(error: unknown): void };
const groupCommits = new WeakMap<Db, (data: AuditRowData) => Promise<AuditEventRow>>();

function groupCommit(db: Db): (data: AuditRowData) => Promise<AuditEventRow> {
  const known = groupCommits.get(db);
  if (known) return known;
  const statements = preparedStatements(db);
  const waiting: Waiting[] = [];
  let writing = false;
  async function drain() {
    writing = true;
    while (waiting.length > 0) {
      // The rest of this turn of the event loop first: the calls answered in it (their responses
      // arrived together) bring their rows to the same commit. SQLite's statements run
      // synchronously, so without this wait no other row could join a commit in flight, and each
      // row paid its own (~30 µs of the main thread's CPU alone, ~10 µs in a group of twenty).
      await new Promise((resolve) => setImmediate(resolve));
      const group = waiting.splice(0, MAX_GROUP);
      try {
        // Other instances' live monitors wake on the channel (PostgreSQL NOTIFY, at the rows' commit).
        const data = group.map((w) => w.data);
        // The rows are written before the answer leaves, often after an effect was applied: a
        // failure of the fast path (a statement a migration made stale, a driver change) falls
        // back to Prisma's own insert rather than fail the call or lose its row.
        const rows = await statements
          .insertAuditRows(data, AUDIT_CHANNEL)
          .catch((error) => insertWithPrisma(db, data, error));
        for (const [i, w] of group.entries()) w.resolve(rows[i] as AuditEventRow);
      } catch (error) {
        for (const w of group) w.reject(error);
      }
    }
    writing = false;
  }
  const enqueue = (data: AuditRowData) =>
    new Promise<AuditEventRow>((resolve, reject) => {
      waiting.push({ data, resolve, reject });
      if (!writing) void drain();
    });
  groupCommits.set(db, enqueue);
  return enqueue;
}

/** The plain Prisma insert (one transaction, each tenant's counter moved once), logged as a fallback. */
async function insertWithPrisma(db: Db, rows: AuditRowData[], cause: unknown): Promise<AuditEventRow[]> {
  logger.warn({ err: cause }, "audit insert fell back to Prisma");
  return db.$transaction(
    async (tx) => {
      const count = new Map<string, number>();
      for (const row of rows) count.set(row.tenantId, (count.get(row.tenantId) ?? 0) + 1);
      const next = new Map<string, number>();
      for (const [tenantId, n] of count) {
        const counter = await tx.auditCounter.upsert({
          where: { tenantId },
          create: { tenantId, seq: n },
          update: { seq: { increment: n } },
        });
        next.set(tenantId, counter.seq - n + 1);
      }
      const out: AuditEventRow[] = [];
      for (const row of rows) {
        const seq = next.get(row.tenantId) as number;
        next.set(row.tenantId, seq + 1);
        out.push(await tx.auditEvent.create({ data: { ...row, seq } }));
      }
      return out;
    },
    // SQLite has one writer: wait for the turn rather than lose the row.
    { maxWait: 15_000, timeout: 15_000 },
  );
}

/**
 * Writes one audit row (arguments redacted, then bounded), publishes it to in-process subscribers
 * and notifies other instances. Called before the response leaves, so approvals, secret changes and effects
 * are on record first.
 */
export async function recordAuditEvent(db: Db, ctx: AuditActor, input: AuditInput) {
  const data = {
    tenantId: ctx.tenantId,
    agentId: ctx.agentId ?? null,
    userId: ctx.userId,
    face: ctx.face,
    operation: input.operation,
    // The target is often a URI the agent chose (`shop://order/x?token=…`): redacted like arguments.
    target: input.target ? redactText(input.target) : null,
    capability: input.capability ? redactText(input.capability) : null,
    // Redacted before it is cut: a secret split at the cut could escape the value patterns.
    arguments: (boundArguments(redactSecrets(input.arguments ?? {})) ?? {}) as object,
    decision: input.decision ?? null,
    outcome: input.outcome,
    message: input.message ? redactText(input.message).slice(0, 1000) : null,
    latencyMs: Math.max(0, Math.round(input.latencyMs)),
    // Often the action_id the agent sent (an unknown one included): redacted like its arguments.
    actionId: input.actionId ? redactText(input.actionId) : null,
    actionKey: input.actionKey ?? null,
    requestId: ctx.requestId ?? null,
  };
  const row = await inSpan("signpost.audit", { "signpost.operation": input.operation }, () =>
    insertNumbered(db, data),
  );
  // The internal id is global across tenants: it never leaves this function.
  const { id: _internal, ...visible } = row;
  const event: PublishedAuditEvent = {
    ...visible,
    arguments: visible.arguments,
    createdAt: row.createdAt.toISOString(),
  };
  signpostMetrics().auditEvents.inc({ face: row.face, outcome: row.outcome });
  // Other instances heard of it from the insert itself (PostgreSQL NOTIFY; nothing on SQLite).
  await inSpan("signpost.publish", {}, async () => publishAuditEvent(event));
  return event;
}
