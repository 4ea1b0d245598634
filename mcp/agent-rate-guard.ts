import type { Db } from "@/server/db/client";
import { createRateLimiter, type RateDecision } from "@/server/gateway/rate-limiter";
import { recordAuditEvent } from "@/server/gateway/record-audit-event";
import type { TrustedContext } from "@/server/gateway/trusted-context";

/** At most one audit row per agent per this long while it keeps being refused. */
const AUDIT_EVERY_MS = 10_000;

/**
 * The per-agent-key call budget of `/mcp`, with its refusals in the audit log. A runaway agent
 * can send thousands of calls a second, so refusals are recorded as one row per agent per 10 s
 * carrying how many were refused, rather than a row each that would flood the table.
 */
export function createAgentRateGuard(db: Db, perMinute: number) {
  const limiter = createRateLimiter(perMinute);
  const refusals = new Map<string, { since: number; refused: number }>();

  return async function check(context: TrustedContext, now = Date.now()): Promise<RateDecision> {
    const key = context.agentId ?? context.userId;
    const decision = limiter.take(key, now);
    if (decision.ok) return decision;
    const seen = refusals.get(key);
    if (seen && now - seen.since < AUDIT_EVERY_MS) {
      seen.refused += 1;
      return decision;
    }
    const refused = (seen?.refused ?? 0) + 1;
    refusals.set(key, { since: now, refused: 0 });
    try {
      await recordAuditEvent(db, context, {
        operation: "mcp.rate_limited",
        target: "/mcp",
        arguments: { refused, calls_per_minute: perMinute },
        outcome: "temporarily_unavailable",
        message: `${refused} call(s) refused: over ${perMinute} calls per minute for this agent key`,
        latencyMs: 0,
      });
    } catch (error) {
      // The refusal stands either way; a lost audit row must not turn it into a 500.
      console.error(
        "[mcp] could not audit a rate-limit refusal",
        error instanceof Error ? error.message : error,
      );
    }
    return decision;
  };
}
