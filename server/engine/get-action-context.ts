import type { Actor } from "../connectors/sdk/define-capability";
import { type ActionResponse, notFoundAction, respond } from "./action-response";
import { type ActorScope, loadActionWithCapability } from "./action-store";
import type { EngineDeps } from "./engine-deps";

/** Re-reads an action to resume it, with its inputs and the JSON Schema of the patch it accepts now. */
export async function getActionContext(
  deps: EngineDeps,
  actor: Actor,
  actionId: string,
  scope: ActorScope = "own",
): Promise<ActionResponse> {
  const found = await loadActionWithCapability(deps, actor, actionId, scope);
  if (!found) return notFoundAction(actionId);
  const { row, capability } = found;
  return respond(
    deps,
    capability,
    row,
    { outcome: "applied", message: `${capability.title}: ${row.status} at ${row.node}`, retryable: false },
    { withInputs: true, withSchema: true, options: "full" },
  );
}
