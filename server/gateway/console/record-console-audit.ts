import type { Db } from "../../db/client";
import type { ConsoleContext } from "../console-session";
import { recordAuditEvent } from "../record-audit-event";

export type ConsoleAuditInput = {
  /** `domain.verb`, e.g. `secret.replaced`, `agent.created`, `permission.rule_created`. */
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
 * Audits a person's console mutation through the gateway's audit writer (redaction + publish)
 * before the response is sent, so secret changes, keys and rules are on record even if the
 * reply is lost. The live monitor reads AuditEvent by seq, so the row reaches every instance.
 */
export async function recordConsoleAudit(
  db: Db,
  ctx: Pick<ConsoleContext, "tenantId" | "userId">,
  input: ConsoleAuditInput,
) {
  return recordAuditEvent(
    db,
    { tenantId: ctx.tenantId, userId: ctx.userId, face: "console" },
    {
      operation: input.operation,
      target: input.target ?? null,
      capability: input.capability ?? null,
      arguments: input.arguments ?? {},
      decision: input.decision ?? null,
      outcome: input.outcome,
      message: input.message ?? null,
      latencyMs: input.startedAt ? Date.now() - input.startedAt : 0,
      actionId: input.actionId ?? null,
      actionKey: input.actionKey ?? null,
    },
  );
}
