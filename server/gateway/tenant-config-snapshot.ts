import type { Db } from "../db/client";
import { noteVaultValue } from "../vault-values";
import { decryptSecret } from "./vault";

type RuleRow = Awaited<ReturnType<Db["permissionRule"]["findMany"]>>[number];
type ConfigRow = Awaited<ReturnType<Db["connectorConfig"]["findMany"]>>[number];
type SecretRow = Awaited<ReturnType<Db["secret"]["findMany"]>>[number];

/** Who a snapshot is for: the tenant, and the stamp read with the call's tenant row when there is one. */
export interface TenantRef {
  tenantId: string;
  /** Tenant.configVersion as read at the start of this call; absent: read it here. */
  tenantVersion?: number;
}

/**
 * What a call reads about its tenant's setup, read once and shared by every call that sees the
 * same Tenant.configVersion: permission rules in position order, connector configs by connector,
 * secrets opened on first use. Database triggers bump the version on every change to those rows
 * (prisma/…/tenant_config_version), and every MCP call reads the version with the tenant row it
 * already reads, so a change made on any instance is seen by the next call on every instance.
 */
export interface TenantConfigSnapshot {
  version: number;
  rules: RuleRow[];
  config(connector: string): ConfigRow | null;
  /** A secret's plain value (server-internal, like readSecret), or null when none is set. */
  secret(connector: string, name: string): string | null;
}

/** Tenants whose snapshot each database handle keeps (least recently used dropped first). */
const MAX_TENANTS = 500;

type Entry = { version: number; snapshot: Promise<TenantConfigSnapshot> };
const caches = new WeakMap<Db, Map<string, Entry>>();

/** The tenant's snapshot at (at least) the version the call read; loaded when that version is not cached. */
export async function tenantConfigSnapshot(db: Db, ref: TenantRef): Promise<TenantConfigSnapshot> {
  const version =
    ref.tenantVersion ??
    (await db.tenant.findUnique({ where: { id: ref.tenantId }, select: { configVersion: true } }))
      ?.configVersion ??
    0;
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  const hit = cache.get(ref.tenantId);
  // A newer copy serves an older stamp too (a call that read its stamp just before a change).
  if (hit && hit.version >= version) {
    cache.delete(ref.tenantId);
    cache.set(ref.tenantId, hit);
    return hit.snapshot;
  }
  // Labelled with the stamp read before the rows: the rows are at least that new.
  const entry: Entry = { version, snapshot: loadSnapshot(db, ref.tenantId, version) };
  cache.set(ref.tenantId, entry);
  if (cache.size > MAX_TENANTS) cache.delete(cache.keys().next().value as string);
  entry.snapshot.catch(() => {
    if (cache.get(ref.tenantId) === entry) cache.delete(ref.tenantId);
  });
  return entry.snapshot;
}

async function loadSnapshot(db: Db, tenantId: string, version: number): Promise<TenantConfigSnapshot> {
  const [rules, configs, secrets] = await Promise.all([
    db.permissionRule.findMany({ where: { tenantId }, orderBy: [{ position: "asc" }, { createdAt: "asc" }] }),
    db.connectorConfig.findMany({ where: { tenantId } }),
    db.secret.findMany({ where: { tenantId } }),
  ]);
  const configByConnector = new Map(configs.map((c) => [c.connector, c]));
  const rows = new Map<string, SecretRow>(secrets.map((s) => [`${s.connector}\u0000${s.name}`, s]));
  const opened = new Map<string, string>();
  return {
    version,
    rules,
    config: (connector) => configByConnector.get(connector) ?? null,
    secret(connector, name) {
      const key = `${connector}\u0000${name}`;
      const known = opened.get(key);
      if (known !== undefined) return known;
      const row = rows.get(key);
      if (!row) return null;
      // Throws like readSecret for a row sealed under another key or moved to another ref.
      const value = decryptSecret({ tenantId, connector, name }, row);
      noteVaultValue(value);
      opened.set(key, value);
      return value;
    },
  };
}
