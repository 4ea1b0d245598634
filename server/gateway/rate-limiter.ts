import type { Redis } from "ioredis";
import pg from "pg";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { databaseUrl, providerOf } from "../db/database-url";
import { logger } from "../logger";

/** `SIGNPOST_AGENT_RATE_LIMIT` default: calls per minute per agent key, across all instances. */
export const DEFAULT_AGENT_CALLS_PER_MINUTE = 600;

/** The budget's window: a key's calls are counted per minute from its first call in the window. */
/** The budget's window: calls per minute. A refusal never asks to wait longer than one window. */
export const RATE_WINDOW_S = 60;

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
  take(key: string, cost?: number): Promise<RateDecision>;
  /** Releases the store's connections (tests, shutdown); the limiter must not be used after. */
  close(): Promise<void>;
}

/**
 * Where the counters live. `memory`: this process only (one instance on SQLite). `postgres` and
 * `redis`: shared by every instance that uses the same database or Redis, so N instances allow
 * the budget once, not N times.
 */
export type RateLimitStore =
  | { kind: "memory" }
  | { kind: "postgres"; url: string }
  | { kind: "redis"; url: string };

/** The store the environment asks for: SIGNPOST_REDIS_URL, else PostgreSQL when DATABASE_URL is, else memory. */
export function rateLimitStoreFromEnv(env: Record<string, string | undefined> = process.env): RateLimitStore {
  const redis = env.SIGNPOST_REDIS_URL?.trim();
  if (redis) return { kind: "redis", url: redis };
  const url = databaseUrl(env);
  return providerOf(url) === "postgres" ? { kind: "postgres", url } : { kind: "memory" };
}

/**
 * The call budget: `perMinute` calls per key per one-minute window, counted by
 * rate-limiter-flexible in `store`. Atomic in the store (an upsert on PostgreSQL, a Lua script
 * on Redis), so instances racing on one key cannot both take the last calls. If the shared
 * store fails, each instance falls back to a budget of its own in memory (the library's
 * insurance limiter) rather than failing the calls or letting them all through.
 *
 * All or nothing: the library adds a refused batch's calls to the counter before it refuses,
 * so the refusal hands them straight back (`reward`). Until it does, another request on the same
 * key may see the window fuller than it is, and be refused, never admitted, wrongly. A refusal
 * that comes with less than a second left in its window keeps the points: the window's end
 * clears them anyway, and a reward after it would start the next window in credit.
 */
export function createRateLimiter(
  perMinute: number,
  store: RateLimitStore = { kind: "memory" },
): RateLimiter {
  if (perMinute <= 0) return { take: async () => ({ ok: true }), close: async () => undefined };
  const options = { points: perMinute, duration: RATE_WINDOW_S, keyPrefix: "signpost_calls" };
  const insurance = () => new RateLimiterMemory(options);
  let limiter: RateLimiterAbstract;
  let ready: Promise<void> = Promise.resolve();
  let close: () => Promise<void> = async () => undefined;
  if (store.kind === "postgres") {
    // Every call's upsert on the counter commits; with PostgreSQL's default synchronous commit
    // it waited for the WAL's flush to disk (4 ms p50, 25–45 ms p99 on the test machine: the
    // largest part of a read's overhead on PostgreSQL). A counter is no record: after a database
    // crash the last fraction of a second of increments may be gone, which lets an agent a few
    // more calls in that minute, and nothing else (no corruption, the row stays consistent). The
    // audit rows keep their own synchronous commit: they are durable before the answer.
    const pool = new pg.Pool({ connectionString: store.url, max: 4, options: "-c synchronous_commit=off" });
    // An idle connection the server dropped: the next query reconnects; no reason to crash.
    pool.on("error", (error) => logger.warn({ err: error.message }, "rate limit store: connection lost"));
    const start = (tableCreated: boolean) =>
      new Promise<void>((resolve, reject) => {
        limiter = new RateLimiterPostgres(
          {
            ...options,
            storeClient: pool,
            storeType: "pool",
            // rate-limiter-flexible owns this table and deletes expired rows itself.
            tableName: "signpost_rate_limits",
            tableCreated,
            insuranceLimiter: insurance(),
          },
          (error?: Error) => (error ? reject(error) : resolve()),
        );
      });
    // Its CREATE TABLE IF NOT EXISTS is not safe when instances start together: PostgreSQL
    // answers the loser "relation already exists" (42P07), "type … already exists" (42710) or
    // a unique violation on the type (23505). The table is there then; the loser uses it.
    ready = start(false).catch((error: { code?: string }) => {
      if (["42P07", "42710", "23505"].includes(error?.code ?? "")) return start(true);
      throw error;
    });
    close = () => pool.end();
  } else if (store.kind === "redis") {
    // ioredis is loaded here only: a process that counts in PostgreSQL or memory never pays for it.
    let client: Redis | undefined;
    let closed = false;
    ready = import("ioredis").then(({ Redis }) => {
      if (closed) {
        limiter = insurance();
        return;
      }
      // No offline queue: while Redis is unreachable a call is counted by the insurance limiter
      // at once instead of waiting for a reconnect.
      const redis = new Redis(store.url, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        lazyConnect: false,
      });
      client = redis;
      redis.on("error", (error) => logger.warn({ err: error.message }, "rate limit store: Redis error"));
      limiter = new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: insurance() });
      return new Promise<void>((resolve) => {
        if (redis.status === "ready") resolve();
        else redis.once("ready", () => resolve());
        // Not ready within 2 s: go on; the insurance limiter counts until Redis answers.
        setTimeout(resolve, 2_000).unref();
      });
    });
    close = async () => {
      closed = true;
      client?.disconnect();
    };
  } else {
    limiter = new RateLimiterMemory(options);
  }
  // A store that cannot even be set up (no table rights, bad URL) must not leave an unhandled
  // rejection; each take() reports it.
  ready.catch(() => undefined);

  return {
    async take(key, cost = 1) {
      if (cost > perMinute) return { ok: false, retryAfterMs: RATE_WINDOW_S * 1000, exceedsBudget: true };
      await ready;
      try {
        await limiter.consume(key, cost);
        return { ok: true };
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        if (refusal.msBeforeNext > 1_000) await limiter.reward(key, cost).catch(() => undefined);
        return { ok: false, retryAfterMs: Math.max(1, refusal.msBeforeNext) };
      }
    },
    close,
  };
}

/** Calls per minute from `SIGNPOST_AGENT_RATE_LIMIT`: a whole number, `0` turns the limit off. */
export function agentRateFromEnv(value = process.env.SIGNPOST_AGENT_RATE_LIMIT): number {
  return value && /^\d+$/.test(value) ? Number(value) : DEFAULT_AGENT_CALLS_PER_MINUTE;
}
