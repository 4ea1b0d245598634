import type { Actor } from "../connectors/sdk/define-capability";
import { parseActionState } from "./action-state";
import type { EngineDeps } from "./engine-deps";

/** Held actions read back at most: the caller's latest on the record. */
const LOOKED_AT = 5;

/**
 * The actions a start of the same change takes the place of: this caller's earlier actions of the
 * same capability on the same record, with the same fields, that are held only for the user's
 * word on their record (`held_for_words`: open at their confirmation, nothing claimed, no person
 * asked). Issue 23: a
 * form submitted without the user's words was held; its re-submit with them ran, and the model
 * spent a cancel_action on the first so that the comment would not be posted twice. An action
 * that waits on a person's approval is never among them (its status is awaiting_approval).
 */
export async function heldForWords(deps: EngineDeps, actor: Actor, actionId: string): Promise<string[]> {
  const started = await deps.db.action.findFirst({
    where: { id: actionId, tenantId: actor.tenantId, userId: actor.userId },
    select: { capability: true, entityId: true, createdAt: true, state: true },
  });
  if (!started?.entityId) return [];
  const rows = await deps.db.action.findMany({
    where: {
      tenantId: actor.tenantId,
      userId: actor.userId,
      agentId: actor.agentId ?? null,
      capability: started.capability,
      entityId: started.entityId,
      status: "open",
      id: { not: actionId },
      createdAt: { lte: started.createdAt },
      effect: { is: null },
    },
    orderBy: { createdAt: "desc" },
    take: LOOKED_AT,
    select: { id: true, state: true },
  });
  const now = parseActionState(started.state).values;
  return rows
    .filter((r) => {
      const held = parseActionState(r.state);
      return held.held_for_words === true && sameChange(held.values, now);
    })
    .map((r) => r.id);
}

/**
 * The same change sent again: every field the held action set is set alike (the re-submit adds
 * the user's words, and what they fill). Review 51: a held internal note was cancelled by another
 * comment on the same ticket, a change the user had not withdrawn.
 */
function sameChange(held: Record<string, unknown>, now: Record<string, unknown>): boolean {
  return Object.entries(held).every(([field, value]) => JSON.stringify(now[field]) === JSON.stringify(value));
}
