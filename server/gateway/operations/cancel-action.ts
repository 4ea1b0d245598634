import { actorOf } from "../trusted-context";
import type { GatewayDeps } from "./gateway-deps";
import { onAction } from "./on-action";
import { cancelActionInputSchema } from "./operation-schemas";

/** cancel_action: ends an action before its effect. Ending an action changes it as a patch does: the same permission verb as advance. */
export function cancelActionOperation(deps: GatewayDeps) {
  const { engine } = deps;
  return onAction(deps)("action.cancelled", "advance", cancelActionInputSchema, (input, caller) =>
    engine.cancel(actorOf(caller), input.action_id),
  );
}
