import type { Db } from "../db/client";
import { notifyAuditWritten } from "./audit-wakeups";
import { type PublishedAuditEvent, publishAuditEvent } from "./event-stream";
import type { TrustedContext } from "./trusted-context";

// Keys whose values are credentials whatever they hold.
const SECRET_KEY = /(secret|password|passwd|token|api[_-]?key|authorization|credential|cookie|^value$)/i;
// Values that look like credentials wherever they appear: agent keys, bearer headers, legacy keys.
const SECRET_VALUE = [/sp_[A-Za-z0-9]{4,}_[A-Za-z0-9_-]{8,}/g, /Bearer\s+\S+/gi, /\blk_[A-Za-z0-9_]{8,}/g];

/** Replaces anything that looks like a secret, by key or by value, with "[redacted]". */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 12) return "[…]";
  if (typeof value === "string") return SECRET_VALUE.reduce((s, re) => s.replace(re, "[redacted]"), value);
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      out[k] =
        SECRET_KEY.test(k) && v !== null && v !== undefined ? "[redacted]" : redactSecrets(v, depth + 1);
    return out;
  }
  return value;
}

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
 * Writes one audit row (arguments redacted), publishes it to in-process subscribers and notifies
 * other instances. Called before the response leaves, so approvals, secret changes and effects
 * are on record first.
 */
export async function recordAuditEvent(
  db: Db,
  ctx: Pick<TrustedContext, "tenantId" | "userId" | "agentId" | "face">,
  input: AuditInput,
) {
  const row = await db.auditEvent.create({
    data: {
      tenantId: ctx.tenantId,
      agentId: ctx.agentId ?? null,
      userId: ctx.userId,
      face: ctx.face,
      operation: input.operation,
      target: input.target ?? null,
      capability: input.capability ?? null,
      arguments: (redactSecrets(input.arguments ?? {}) ?? {}) as object,
      decision: input.decision ?? null,
      outcome: input.outcome,
      message: input.message ? (redactSecrets(input.message) as string).slice(0, 1000) : null,
      latencyMs: Math.max(0, Math.round(input.latencyMs)),
      actionId: input.actionId ?? null,
      actionKey: input.actionKey ?? null,
    },
  });
  const event: PublishedAuditEvent = {
    ...row,
    arguments: row.arguments,
    createdAt: row.createdAt.toISOString(),
  };
  publishAuditEvent(event);
  // Other instances' live monitors wake on this (PostgreSQL NOTIFY; a no-op on SQLite).
  await notifyAuditWritten(db, row.seq);
  return event;
}
