import { createHash } from "node:crypto";
import type { CachedLookups } from "../connectors/sdk/cached-lookups";

/**
 * How long a remembered lookup is used: the longest that a change in the system beneath (a
 * customer record deleted, or its email given to someone else) goes unseen, i.e. the longest a
 * mapping revoked there keeps granting what it granted (a member's reach to that customer's
 * orders). Roles and permissions are not in it: they are read on every call.
 */
export const LOOKUP_TTL_MS = 30_000;

/** Entries one process keeps; beyond this the oldest (the first to expire) is dropped. */
const MAX_ENTRIES = 10_000;

/** Whose lookups: the tenant, the connector, the credentials it calls with, and the person. */
export interface LookupScope {
  tenantId: string;
  connector: string;
  userId: string;
  baseUrl: string;
  secrets: Record<string, string>;
  settings: Record<string, string>;
  /** A per-person connection's token: another account connected is another scope. */
  personToken?: string;
}

const sorted = (record: Record<string, string>) =>
  Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * The scope as one opaque key. The credentials are in it (hashed, never kept as text): they come
 * from the tenant's config snapshot, which every call checks against Tenant.configVersion, so an
 * address or secret changed on any instance is a new scope on every instance at its next call.
 */
function scopeKey(scope: LookupScope): string {
  return createHash("sha256")
    .update(
      JSON.stringify([
        scope.tenantId,
        scope.connector,
        scope.userId,
        scope.baseUrl,
        sorted(scope.secrets),
        sorted(scope.settings),
        scope.personToken ?? null,
      ]),
    )
    .digest("base64url");
}

interface Entry {
  expires: number;
  value: Promise<unknown>;
}

/** A bounded, expiring memory of connector lookups (see CachedLookups); one per process by default. */
export function createLookupCache(options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {
  const ttlMs = options.ttlMs ?? LOOKUP_TTL_MS;
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  function scoped(scope: LookupScope): CachedLookups {
    const prefix = scopeKey(scope);
    return {
      remember<T>(key: string, load: () => Promise<T>): Promise<T> {
        const id = `${prefix}\u0000${key}`;
        const at = now();
        const hit = entries.get(id);
        if (hit && hit.expires > at) return hit.value as Promise<T>;
        entries.delete(id);
        const entry: Entry = { expires: at + ttlMs, value: load() };
        // Insertion order is expiry order (one TTL): the first key is the oldest.
        entries.set(id, entry);
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
        entry.value.catch(() => {
          if (entries.get(id) === entry) entries.delete(id);
        });
        return entry.value as Promise<T>;
      },
    };
  }

  return { scoped, size: () => entries.size };
}

export type LookupCache = ReturnType<typeof createLookupCache>;

/** The process's lookups, shared by every gateway in it (scopes keep tenants and people apart). */
export const connectorLookups: LookupCache = createLookupCache();
