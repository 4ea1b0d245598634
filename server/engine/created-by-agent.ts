import type { AnyCapability } from "../connectors/sdk/define-capability";
import type { Db } from "../db/client";

/** The most records one page asks about: a list page shows far fewer. */
const MAX_IDS = 100;

/** Answers one process keeps per database handle; beyond this the least recently used goes. */
const MAX_ENTRIES = 5_000;

/** How long an answer is kept at most: the stamp says when it is stale; this bounds memory's life. */
const TTL_MS = 60_000;

/** Who asks: the caller's tenant and agent, with the agent's applied-actions stamp when the call read it. */
export interface CreatedByWho {
  tenantId: string;
  agentId?: string;
  /** Agent.appliedActionsVersion as read with this call's tenant row; absent: not cached. */
  appliedActionsVersion?: number;
}

type Row = { capability: string; entityId: string | null; updatedAt: Date };

interface Entry {
  stamp: number;
  /** This process's write clock when the read started (see noteAgentWrote). */
  clock: number;
  expires: number;
  rows: Promise<Row[]>;
}

/**
 * One database handle's answers. `clock` counts agent writes this process made; `wrote` holds
 * the clock at each agent's last one (bounded: an agent dropped from it counts as having written
 * at `floor`, the latest clock dropped, which only makes more answers stale, never fewer).
 */
interface Cache {
  entries: Map<string, Entry>;
  clock: number;
  wrote: Map<string, number>;
  floor: number;
}

const caches = new WeakMap<Db, Cache>();

function cacheOf(db: Db): Cache {
  let cache = caches.get(db);
  if (!cache) {
    cache = { entries: new Map(), clock: 0, wrote: new Map(), floor: 0 };
    caches.set(db, cache);
  }
  return cache;
}

/**
 * Tells this process's cache that `agentId` just ran an operation that may have applied or
 * changed its actions. The stamp a call read at its start is older than that write, so without
 * this a later read in the same call (a script that confirms, then lists) could be answered
 * from before it. Another call, here or on another instance, reads the stamp anew.
 */
export function noteAgentWrote(db: Db, agentId: string | undefined): void {
  if (!agentId) return;
  const cache = cacheOf(db);
  cache.clock++;
  cache.wrote.delete(agentId);
  cache.wrote.set(agentId, cache.clock);
  if (cache.wrote.size > MAX_ENTRIES) {
    const [oldest, at] = cache.wrote.entries().next().value as [string, number];
    cache.wrote.delete(oldest);
    cache.floor = Math.max(cache.floor, at);
  }
}

/** The applied actions of this agent on these records, from the cache when its stamp still holds. */
function appliedRows(db: Db, who: CreatedByWho & { agentId: string }, entity: string, ids: string[]) {
  const read = () =>
    db.action.findMany({
      where: {
        tenantId: who.tenantId,
        agentId: who.agentId,
        entityType: entity,
        entityId: { in: ids },
        status: { in: ["applied", "completed"] },
      },
      select: { capability: true, entityId: true, updatedAt: true },
    });
  const stamp = who.appliedActionsVersion;
  if (stamp === undefined) return read();
  const cache = cacheOf(db);
  const key = JSON.stringify([who.tenantId, who.agentId, entity, [...new Set(ids)].sort()]);
  const now = Date.now();
  const hit = cache.entries.get(key);
  cache.entries.delete(key);
  const wrote = cache.wrote.get(who.agentId) ?? cache.floor;
  if (hit && hit.stamp === stamp && hit.clock >= wrote && hit.expires > now) {
    cache.entries.set(key, hit);
    return hit.rows;
  }
  const entry: Entry = { stamp, clock: cache.clock, expires: now + TTL_MS, rows: read() };
  cache.entries.set(key, entry);
  if (cache.entries.size > MAX_ENTRIES) cache.entries.delete(cache.entries.keys().next().value as string);
  entry.rows.catch(() => {
    if (cache.entries.get(key) === entry) cache.entries.delete(key);
  });
  return entry.rows;
}

/** Answers this process keeps for `db` now (tests: the cache stays bounded). */
export function createdByAgentCacheSize(db: Db): number {
  return caches.get(db)?.entries.size ?? 0;
}

/**
 * Which of these records of `entity` an action of this agent created, with when: "cancel the
 * order I placed today" is unambiguous when the list marks them. A record counts when the
 * action's capability starts from no record (checkout, not after-sales on an order) and its
 * effect applied, naming the record it made (the effect ledger's entityId). Scoped to the
 * caller's tenant and agent: another agent's or tenant's actions never mark anything, and a
 * person (no agent) has none.
 *
 * Read once per agent and set of records while the agent's applied-actions stamp (read with the
 * call's tenant row, bumped by database triggers on every change to its applied actions) holds:
 * an order the agent placed through any instance is marked on its next call on every instance.
 */
export async function createdByAgent(
  db: Db,
  capabilities: ReadonlyMap<string, AnyCapability>,
  who: CreatedByWho,
  entity: string,
  ids: string[],
): Promise<Record<string, string>> {
  const agentId = who.agentId;
  if (!agentId || ids.length === 0) return {};
  const rows = await appliedRows(db, { ...who, agentId }, entity, ids.slice(0, MAX_IDS));
  const out: Record<string, string> = {};
  for (const row of rows) {
    const capability = capabilities.get(row.capability);
    // An action on an existing record (its entity id given at start) did not create it.
    if (!row.entityId || !capability || capability.appliesTo.field) continue;
    out[row.entityId] = row.updatedAt.toISOString();
  }
  return out;
}
