/** `SIGNPOST_AGENT_RATE_LIMIT` default: calls per minute per agent key, per instance. */
export const DEFAULT_AGENT_CALLS_PER_MINUTE = 600;

/**
 * A refusal says when the calls will fit; `exceedsBudget` when they never will (more calls at
 * once than the whole budget), so waiting is no use and the caller must send fewer at a time.
 */
export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number; exceedsBudget?: true };

export interface RateLimiter {
  /**
   * Takes `cost` calls (default 1) from `key`'s budget, all or nothing: a refusal takes none,
   * and says how long until all of them are available.
   */
  take(key: string, cost?: number, now?: number): RateDecision;
}

/**
 * A token bucket per key: up to `perMinute` calls at once, refilled evenly over a minute. A call
 * is one JSON-RPC message, so a face charges a batch its length. It
 * lives in this process (no database write per call), so N instances behind a balancer allow up
 * to N× the rate; it is a guard against runaway agent loops, not a billing meter. Idle keys are
 * dropped once their bucket is full again, so memory follows the number of active agents.
 */
export function createRateLimiter(perMinute: number): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refillPerMs = perMinute / 60_000;
  let lastSweep = 0;
  return {
    take(key, cost = 1, now = Date.now()) {
      if (perMinute <= 0) return { ok: true };
      if (cost > perMinute) return { ok: false, retryAfterMs: 60_000, exceedsBudget: true };
      if (now - lastSweep > 60_000) {
        for (const [k, b] of buckets)
          if (b.tokens + (now - b.at) * refillPerMs >= perMinute) buckets.delete(k);
        lastSweep = now;
      }
      const bucket = buckets.get(key) ?? { tokens: perMinute, at: now };
      bucket.tokens = Math.min(perMinute, bucket.tokens + (now - bucket.at) * refillPerMs);
      bucket.at = now;
      buckets.set(key, bucket);
      if (bucket.tokens >= cost) {
        bucket.tokens -= cost;
        return { ok: true };
      }
      return { ok: false, retryAfterMs: Math.ceil((cost - bucket.tokens) / refillPerMs) };
    },
  };
}

/** Calls per minute from `SIGNPOST_AGENT_RATE_LIMIT`: a whole number, `0` turns the limit off. */
export function agentRateFromEnv(value = process.env.SIGNPOST_AGENT_RATE_LIMIT): number {
  return value && /^\d+$/.test(value) ? Number(value) : DEFAULT_AGENT_CALLS_PER_MINUTE;
}
