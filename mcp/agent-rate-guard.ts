import type { Db } from "@/server/db/client";
import {
  createRateLimiter,
  type RateDecision,
  type RateLimiter,
  type RateLimitStore,
} from "@/server/gateway/rate-limiter";
import { recordAuditEvent } from "@/server/gateway/record-audit-event";
import type { TrustedContext } from "@/server/gateway/trusted-context";
import { logger } from "@/server/logger";
import { signpostMetrics } from "@/server/metrics/signpost-metrics";

/**
 * The per-agent-key call budget of `/mcp`, with its refusals in the audit log. A call is one
 * JSON-RPC message, so a batch is charged its length. A runaway agent can send thousands of
 * calls a second, so rather than a row per refusal: the first refusal is recorded at once, the
 * rest of the next `windowMs` (10 s) are counted and recorded as one row when the window closes
 * (if there were any). Nothing is lost when the agent stops, and nothing is kept for an agent
 * once its window has closed.
 */
export function createAgentRateGuard(
  db: Db,
  perMinute: number,
  windowMs = 10_000,
  store: RateLimitStore = { kind: "memory" },
) {
  const limiter: RateLimiter = createRateLimiter(perMinute, store);
  const windows = new Map<string, { refused: number }>();

  async function record(context: TrustedContext, refused: number) {
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
      logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        "mcp: could not audit a rate-limit refusal",
      );
    }
  }

  /** Charges `calls` JSON-RPC messages at once (a batch), all or none; refusals count each call. */
  async function check(context: TrustedContext, calls = 1): Promise<RateDecision> {
    const key = context.agentId ?? context.userId;
    const decision = await limiter.take(key, calls);
    if (decision.ok) return decision;
    signpostMetrics().rateLimited.inc(calls);
    const open = windows.get(key);
    if (open) {
      open.refused += calls;
      return decision;
    }
    const window = { refused: 0 };
    windows.set(key, window);
    setTimeout(() => {
      windows.delete(key);
      if (window.refused > 0) void record(context, window.refused);
    }, windowMs).unref();
    await record(context, calls);
    return decision;
  }
  return Object.assign(check, { close: () => limiter.close() });
}
