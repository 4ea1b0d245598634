import { createHash } from "node:crypto";
import type Database from "better-sqlite3";

/** A first request that never finished (crashed process) stops blocking its key after this long. */
const abandonAfterMs = 60_000;

/** Like Stripe: a key is remembered for 24 hours after its first use; after that it is new again. */
export const idempotencyKeyTtlMs = 24 * 60 * 60 * 1000;

export type IdempotencyClaim =
  | { kind: "claimed" }
  | { kind: "replay"; status: number; body: unknown }
  | { kind: "in_use" }
  | { kind: "reused_with_different_parameters" };

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** What makes two requests "the same": method, concrete path and the body with keys sorted. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method} ${path}\n${JSON.stringify(canonical(body ?? null))}`)
    .digest("hex");
}

/**
 * Claims `key` for this request, or says why not. The key row is inserted in an
 * IMMEDIATE transaction before any work starts, so of two concurrent requests (even
 * from two processes on one store) exactly one claims it; the other sees `in_use`.
 */
export function claimIdempotencyKey(
  db: Database.Database,
  tenantId: string,
  key: string,
  fingerprint: string,
  now: Date,
): IdempotencyClaim {
  const claim = db.transaction((): IdempotencyClaim => {
    const row = db
      .prepare(
        "SELECT fingerprint, state, response_status, response_body, locked_at, created_at FROM idempotency_keys WHERE tenant_id = ? AND key = ?",
      )
      .get(tenantId, key) as
      | {
          fingerprint: string;
          state: string;
          response_status: number | null;
          response_body: string | null;
          locked_at: string;
          created_at: string;
        }
      | undefined;
    const expiredBefore = new Date(now.getTime() - idempotencyKeyTtlMs).toISOString();
    // Expiry is checked on use: an expired key (whatever it stored, even a stuck claim) is new again.
    if (row && row.created_at <= expiredBefore) {
      db.prepare(
        "UPDATE idempotency_keys SET fingerprint = ?, state = 'in_flight', response_status = NULL, response_body = NULL, locked_at = ?, created_at = ? WHERE tenant_id = ? AND key = ?",
      ).run(fingerprint, now.toISOString(), now.toISOString(), tenantId, key);
      return { kind: "claimed" };
    }
    if (!row) {
      // Opportunistic pruning on each new key: expired rows are never answered again. ISO-8601
      // UTC strings compare in time order.
      db.prepare("DELETE FROM idempotency_keys WHERE created_at <= ?").run(expiredBefore);
      db.prepare(
        "INSERT INTO idempotency_keys (tenant_id, key, fingerprint, state, locked_at, created_at) VALUES (?, ?, ?, 'in_flight', ?, ?)",
      ).run(tenantId, key, fingerprint, now.toISOString(), now.toISOString());
      return { kind: "claimed" };
    }
    if (row.fingerprint !== fingerprint) return { kind: "reused_with_different_parameters" };
    if (row.state === "done") {
      return {
        kind: "replay",
        status: row.response_status ?? 200,
        body: JSON.parse(row.response_body ?? "null"),
      };
    }
    if (now.getTime() - Date.parse(row.locked_at) < abandonAfterMs) return { kind: "in_use" };
    db.prepare("UPDATE idempotency_keys SET locked_at = ? WHERE tenant_id = ? AND key = ?").run(
      now.toISOString(),
      tenantId,
      key,
    );
    return { kind: "claimed" };
  });
  return claim.immediate();
}

/** Stores the first response; call inside the transaction that applied the change, so both commit together. */
export function completeIdempotencyKey(
  db: Database.Database,
  tenantId: string,
  key: string,
  status: number,
  body: unknown,
): void {
  db.prepare(
    "UPDATE idempotency_keys SET state = 'done', response_status = ?, response_body = ? WHERE tenant_id = ? AND key = ?",
  ).run(status, JSON.stringify(body), tenantId, key);
}

/** Frees a claimed key whose request did nothing (validation, injected 503, crash), so a retry runs again. */
export function releaseIdempotencyKey(db: Database.Database, tenantId: string, key: string): void {
  db.prepare("DELETE FROM idempotency_keys WHERE tenant_id = ? AND key = ? AND state = 'in_flight'").run(
    tenantId,
    key,
  );
}
