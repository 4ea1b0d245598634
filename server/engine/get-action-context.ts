import { type ActionResponse, notFoundAction, respond } from "./action-response";
import { type ActorScope, loadAction } from "./action-store";
import type { Actor } from "./define-capability";
import type { EngineDeps } from "./engine-deps";

/** Re-reads an action to resume it, with its inputs and the JSON Schema of the patch it accepts now. */
export async function getActionContext(
  deps: EngineDeps,
  actor: Actor,
  actionId: string,
  scope: ActorScope = "own",
): Promise<ActionResponse> {
  const row = await loadAction(deps.db, actor, actionId, scope);
  if (!row) return notFoundAction(actionId);
  const capability = deps.capabilities.get(row.capability);
  if (!capability) return notFoundAction(actionId);
  return respond(
    deps,
    capability,
    row,
    { outcome: "applied", message: `${capability.title}: ${row.status} at ${row.node}`, retryable: false },
    { withInputs: true, withSchema: true },
  );
}
