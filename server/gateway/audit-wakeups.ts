import pg from "pg";
import { databaseUrl, providerOf } from "../db/database-url";
import { logger } from "../logger";
import { subscribeAuditEvents } from "./event-stream";

/**
 * The PostgreSQL channel every audit writer notifies with the new row's seq. Only a doorbell:
 * the number is per tenant and names no tenant, and listeners re-read the table, tenant-scoped.
 */
export const AUDIT_CHANNEL = "signpost_audit";
/** How often a waiting stream re-reads anyway: SQLite with several processes, lost notifications. */
export const DEFAULT_SAFETY_POLL_MS = 2_000;

/**
 * `SIGNPOST_MONITOR_POLL_MS` overrides the safety poll (an operator with SQLite and several
 * writers may want it shorter; tests set it far longer, so that a row arriving at all proves it
 * came by a wake-up rather than by the poll). Anything but a whole number from 100 up is ignored.
 */
export function safetyPollFromEnv(value = process.env.SIGNPOST_MONITOR_POLL_MS): number {
  const ms = value && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  return ms >= 100 ? ms : DEFAULT_SAFETY_POLL_MS;
}

export type AuditWakeReason = "local" | "notify" | "poll" | "aborted";

/**
 * A stream's doorbell: the audit table is still the source of truth, but a stream reads it only
 * when a new row may exist. `next()` is level-triggered — a wake-up that arrives while the
 * stream is busy reading is kept, so the following `next()` returns at once and nothing is missed.
 */
export interface AuditWakeups {
  /** Resolves on the next wake-up (or at once if one is pending), the safety poll, or `signal`. */
  next(signal?: AbortSignal): Promise<AuditWakeReason>;
  /** Stops listening; the process's shared LISTEN connection closes with its last user. */
  close(): void;
}

export interface AuditWakeupOptions {
  /** The database whose writers to listen to (default: DATABASE_URL). LISTEN only on PostgreSQL. */
  url?: string;
  /** Wake only for this tenant's in-process events (notifications carry no tenant). */
  tenantId?: string;
  /** Default: `SIGNPOST_MONITOR_POLL_MS`, else 2 s. */
  safetyPollMs?: number;
}

/**
 * Wakes on audit rows written by this process (immediately, via the in-process event stream),
 * by any process on the same PostgreSQL database (LISTEN `signpost_audit`), and every
 * `safetyPollMs` regardless.
 */
export function openAuditWakeups(options: AuditWakeupOptions = {}): AuditWakeups {
  const safetyPollMs = options.safetyPollMs ?? safetyPollFromEnv();
  const url = options.url ?? databaseUrl();
  let pending: AuditWakeReason | null = null;
  let waiter: ((reason: AuditWakeReason) => void) | null = null;
  let closed = false;

  const wake = (reason: AuditWakeReason) => {
    if (closed) return;
    if (waiter) {
      const resolve = waiter;
      waiter = null;
      resolve(reason);
    } else pending ??= reason;
  };

  const unsubscribeLocal = subscribeAuditEvents((event) => {
    if (!options.tenantId || event.tenantId === options.tenantId) wake("local");
  });
  const unsubscribeNotify =
    providerOf(url) === "postgres" ? sharedListener(url).add(() => wake("notify")) : null;

  return {
    next(signal) {
      if (closed || signal?.aborted) return Promise.resolve("aborted");
      if (pending) {
        const reason = pending;
        pending = null;
        return Promise.resolve(reason);
      }
      return new Promise<AuditWakeReason>((resolve) => {
        const finish = (reason: AuditWakeReason) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          if (waiter === finish) waiter = null;
          resolve(reason);
        };
        const onAbort = () => finish("aborted");
        const timer = setTimeout(() => finish("poll"), safetyPollMs);
        signal?.addEventListener("abort", onAbort, { once: true });
        waiter = finish;
      });
    },
    close() {
      if (closed) return;
      unsubscribeLocal();
      unsubscribeNotify?.();
      waiter?.("aborted");
      closed = true;
      waiter = null;
    },
  };
}

/**
 * One LISTEN connection per process and database, shared by every open stream, reconnecting
 * with backoff after an error. After each (re)connect every stream is woken, since
 * notifications sent while the connection was down are gone.
 */
class SharedAuditListener {
  private readonly wakers = new Set<() => void>();
  private client: pg.Client | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retryMs = 250;

  constructor(
    private readonly url: string,
    private readonly onIdle: () => void,
  ) {}

  add(waker: () => void): () => void {
    this.wakers.add(waker);
    if (!this.client && !this.retryTimer) void this.connect();
    return () => {
      this.wakers.delete(waker);
      if (this.wakers.size === 0) this.stop();
    };
  }

  private wakeAll() {
    for (const waker of this.wakers) waker();
  }

  private async connect() {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000 });
    this.client = client;
    let failed = false;
    const fail = (error?: unknown) => {
      if (failed || this.client !== client) return;
      failed = true;
      this.client = null;
      if (error)
        logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          "audit LISTEN connection lost; reconnecting",
        );
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on("error", fail);
    client.on("end", () => fail());
    client.on("notification", (message) => {
      if (message.channel === AUDIT_CHANNEL) this.wakeAll();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${AUDIT_CHANNEL}`);
      if (this.client !== client) return; // stopped while connecting
      this.retryMs = 250;
      this.wakeAll();
    } catch (error) {
      fail(error);
    }
  }

  private scheduleReconnect() {
    if (this.wakers.size === 0 || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.wakers.size > 0) void this.connect();
    }, this.retryMs);
    this.retryTimer.unref?.();
    this.retryMs = Math.min(this.retryMs * 2, 5_000);
  }

  private stop() {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    this.client = null;
    client?.end().catch(() => undefined);
    this.onIdle();
  }
}

// Kept on globalThis so Next.js dev reloads share the connection instead of leaking one each.
const holder = globalThis as typeof globalThis & {
  __signpostAuditListeners?: Map<string, SharedAuditListener>;
};

function sharedListener(url: string): SharedAuditListener {
  holder.__signpostAuditListeners ??= new Map();
  const listeners = holder.__signpostAuditListeners;
  let listener = listeners.get(url);
  if (!listener) {
    listener = new SharedAuditListener(url, () => listeners.delete(url));
    listeners.set(url, listener);
  }
  return listener;
}
