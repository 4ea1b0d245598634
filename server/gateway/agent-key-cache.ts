import type { Db } from "../db/client";
import { preparedStatements, type TenantRow } from "../db/prepared-statements";
import { hashAgentKey } from "./agent-keys";
import { agentContext, LAST_USE_RESOLUTION_MS, noteLastUse, type TrustedContext } from "./trusted-context";

/**
 * What an MCP call reads of its tenant every time: name, script limits and the config stamp, and
 * the calling agent's applied-actions stamp (created-by-agent.ts), in one statement.
 */
export function readTenantRow(db: Db, tenantId: string, agentId?: string): Promise<TenantRow | null> {
  return preparedStatements(db).tenantRow(tenantId, agentId);
}

export type { TenantRow };

/** A resolved agent key: who calls, and its tenant's row as read for this call. */
export interface IdentifiedAgent {
  context: TrustedContext;
  /** Null when the tenant row is gone (the call then finds nothing of it). */
  tenant: TenantRow | null;
}

interface Entry {
  context: TrustedContext;
  /** The agent's last use as this instance last wrote or read it (ms). */
  lastUsedAt: number | null;
  /**
   * The tenant's configVersion read BEFORE the agent row this entry holds: the entry is good
   * while the tenant's stamp still equals it. Null: not yet confirmed (a first lookup learns the
   * tenant only from the agent row, so its stamp is read after; the next call looks again).
   */
  stamp: number | null;
}

/** Keys remembered per instance: beyond this, the least recently used is forgotten. */
const MAX_KEYS = 10_000;

/**
 * Agent keys resolved once per instance and checked on every call against the tenant's
 * configVersion, read with the tenant row the call reads anyway: database triggers bump it when a
 * key is revoked, re-keyed, given other faces, moved or deleted, and when its person's role,
 * name, email or tenant change (prisma/…/agent_identity_config_version). A revoked key therefore
 * stops on the next call on every instance, and a steady caller costs one query (the tenant row)
 * instead of three (agent, person, tenant). Unknown and revoked keys are never cached.
 */
export function createAgentKeyCache(db: Db, options: { maxKeys?: number } = {}) {
  const maxKeys = options.maxKeys ?? MAX_KEYS;
  const entries = new Map<string, Entry>();

  async function lookUp(
    keyHash: string,
  ): Promise<{ context: TrustedContext; lastUsedAt: number | null } | null> {
    const agent = await db.agent.findUnique({ where: { keyHash }, include: { user: true } });
    const context = agent ? agentContext(db, agent, agent.keyPrefix, "actions") : null;
    if (!agent || !context) return null;
    // agentContext wrote the last use if it was stale: then it is now.
    const last = agent.lastUsedAt?.getTime() ?? null;
    const now = Date.now();
    const lastUsedAt = last !== null && now - last < LAST_USE_RESOLUTION_MS ? last : now;
    // Shared by every call of this key on this instance: nobody may change it.
    return { context: Object.freeze(context), lastUsedAt };
  }

  function remember(keyHash: string, entry: Entry) {
    entries.delete(keyHash);
    entries.set(keyHash, entry);
    if (entries.size > maxKeys) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
  }

  /** The caller of this agent key, or null when unknown, revoked or no longer valid. */
  async function identify(key: string): Promise<IdentifiedAgent | null> {
    if (!key || key.length > 200) return null;
    const keyHash = hashAgentKey(key);
    const cached = entries.get(keyHash);
    if (cached) {
      const tenant = await readTenantRow(db, cached.context.tenantId, cached.context.agentId);
      if (tenant && cached.stamp === tenant.configVersion) {
        const agentId = cached.context.agentId as string;
        remember(keyHash, { ...cached, lastUsedAt: noteLastUse(db, agentId, cached.lastUsedAt) });
        return { context: cached.context, tenant };
      }
      // The stamp moved (or the entry is unconfirmed): the agent row again, read after the stamp.
      const fresh = await lookUp(keyHash);
      // Another tenant (or, in theory, agent) now: its rows were not the ones just read.
      if (
        !fresh ||
        !tenant ||
        fresh.context.tenantId !== cached.context.tenantId ||
        fresh.context.agentId !== cached.context.agentId
      ) {
        entries.delete(keyHash);
        return fresh
          ? {
              context: fresh.context,
              tenant: await readTenantRow(db, fresh.context.tenantId, fresh.context.agentId),
            }
          : null;
      }
      remember(keyHash, { ...fresh, stamp: tenant.configVersion });
      return { context: fresh.context, tenant };
    }
    const fresh = await lookUp(keyHash);
    if (!fresh) return null;
    const tenant = await readTenantRow(db, fresh.context.tenantId, fresh.context.agentId);
    remember(keyHash, { ...fresh, stamp: null });
    return { context: fresh.context, tenant };
  }

  return { identify, size: () => entries.size };
}

export type AgentKeyCache = ReturnType<typeof createAgentKeyCache>;
