import type { Db } from "../../db/client";
import type { ConsoleContext } from "../console-session";

export type ConsoleAuditInput = {
  /** `domain.verb`, e.g. `approval.approved`, `secret.replaced`, `permission.granted`. */
  operation: string;
  target?: string | null;
  capability?: string | null;
  /** Validated arguments; callers pass only what is safe to show (never a secret value). */
  arguments?: Record<string, unknown>;
  decision?: string | null;
  outcome: string;
  message?: string | null;
  actionId?: string | null;
  actionKey?: string | null;
  startedAt?: number;
};

/**
 * Writes the audit row of a person's console mutation before the response is sent, so
 * approvals, secret changes and permission grants are on record even if the reply is lost.
 * The live monitor reads AuditEvent by seq, so this row reaches it on every instance.
 */
export async function recordConsoleAudit(db: Db, ctx: Pick<ConsoleContext, "tenantId" | "userId">, input: ConsoleAuditInput) {
  return db.auditEvent.create({
    data: {
      tenantId: ctx.tenantId,
      userId: ctx.userId,
      agentId: null,
      face: "console",
      operation: input.operation,
      target: input.target ?? null,
      capability: input.capability ?? null,
      arguments: (input.arguments ?? {}) as object,
      decision: input.decision ?? null,
      outcome: input.outcome,
      message: input.message ?? null,
      latencyMs: input.startedAt ? Math.max(0, Math.round(Date.now() - input.startedAt)) : 0,
      actionId: input.actionId ?? null,
      actionKey: input.actionKey ?? null,
    },
  });
}
