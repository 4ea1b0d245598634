import type { AnyCapability } from "../connectors/sdk/define-capability";
import type { Db } from "../db/client";

/** The most records one page asks about: a list page shows far fewer. */
const MAX_IDS = 100;

/**
 * Which of these records of `entity` an action of this agent created, with when: "cancel the
 * order I placed today" is unambiguous when the list marks them. A record counts when the
 * action's capability starts from no record (checkout, not after-sales on an order) and its
 * effect applied, naming the record it made (the effect ledger's entityId). Scoped to the
 * caller's tenant and agent: another agent's or tenant's actions never mark anything, and a
 * person (no agent) has none.
 */
export async function createdByAgent(
  db: Db,
  capabilities: ReadonlyMap<string, AnyCapability>,
  who: { tenantId: string; agentId?: string },
  entity: string,
  ids: string[],
): Promise<Record<string, string>> {
  if (!who.agentId || ids.length === 0) return {};
  const rows = await db.action.findMany({
    where: {
      tenantId: who.tenantId,
      agentId: who.agentId,
      entityType: entity,
      entityId: { in: ids.slice(0, MAX_IDS) },
      status: { in: ["applied", "completed"] },
    },
    select: { capability: true, entityId: true, updatedAt: true },
  });
  const out: Record<string, string> = {};
  for (const row of rows) {
    const capability = capabilities.get(row.capability);
    // An action on an existing record (its entity id given at start) did not create it.
    if (!row.entityId || !capability || capability.appliesTo.field) continue;
    out[row.entityId] = row.updatedAt.toISOString();
  }
  return out;
}
