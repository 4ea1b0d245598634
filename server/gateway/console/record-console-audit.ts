import type { Db } from "../../db/client";
import { recordAuditEvent } from "../record-audit-event";

/**
 * Who made an admin change: a signed-in person in the console (their session), or an operator
 * running `npx signpost` on the server (no user in Signpost: `userId` null, face `cli`).
 */
export type AdminActor = {
  tenantId: string;
  userId: string | null;
  face?: "console" | "cli";
  requestId?: string | null;
  /** Who ran the command (their account on the server), kept in the row's arguments. */
  operator?: string;
};

/** The operator at the command line (`operator`: their OS account), acting on `tenantId`. */
export function cliActor(tenantId: string, operator?: string): AdminActor {
  return { tenantId, userId: null, face: "cli", ...(operator ? { operator } : {}) };
}

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
 * Audits an admin mutation (console or CLI) through the gateway's audit writer (redaction +
 * publish) before the response is sent, so secret changes, keys and rules are on record even if
 * the reply is lost. The live monitor reads AuditEvent by seq, so the row reaches every instance.
 */
export async function recordConsoleAudit(db: Db, ctx: AdminActor, input: ConsoleAuditInput) {
  return recordAuditEvent(
    db,
    { tenantId: ctx.tenantId, userId: ctx.userId, face: ctx.face ?? "console", requestId: ctx.requestId },
    {
      operation: input.operation,
      target: input.target ?? null,
      capability: input.capability ?? null,
      arguments: { ...(input.arguments ?? {}), ...(ctx.operator ? { operator: ctx.operator } : {}) },
      decision: input.decision ?? null,
      outcome: input.outcome,
      message: input.message ?? null,
      latencyMs: input.startedAt ? Date.now() - input.startedAt : 0,
      actionId: input.actionId ?? null,
      actionKey: input.actionKey ?? null,
    },
  );
}
