import type { Actor } from "../connectors/sdk/define-capability";
import { parseActionState } from "./action-state";
import { toJson } from "./action-store";
import type { EngineDeps } from "./engine-deps";

/** Said where a step meets an action held for the agent's check: every face says it alike. */
export const HELD_FOR_CHECK =
  " — not run yet: its record was read from words that may not mean it, so check the record, then confirm_action";

/**
 * Marks an open action as held for the agent's check (`held_for_check`): the gateway read its
 * record from words that may not mean it ("the one that …", another ask's record). A later step
 * that completes it then waits for confirm_action instead of running at once under the server's
 * key (review 58d: "Make it low priority, and move the headphones ticket to billing" was held at
 * its start, and the advance that gave the priority lowered the headphones ticket). Only this
 * caller's own open action; nothing else of it changes.
 */
export async function holdForCheck(deps: EngineDeps, actor: Actor, actionId: string): Promise<void> {
  const row = await deps.db.action.findFirst({
    where: { id: actionId, tenantId: actor.tenantId, userId: actor.userId, status: "open" },
    select: { id: true, state: true },
  });
  if (!row) return;
  const state = parseActionState(row.state);
  if (state.held_for_check) return;
  state.held_for_check = true;
  await deps.db.action.update({ where: { id: row.id }, data: { state: toJson(state) } });
}
