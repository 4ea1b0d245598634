import { actorOf } from "../trusted-context";
import type { GatewayDeps } from "./gateway-deps";
import { onAction } from "./on-action";
import { advanceActionInputSchema } from "./operation-schemas";

/** advance_action as one step: a patch to one action (compose-action-steps.ts adds confirm-at-once with a key). */
export function advanceActionOperation(deps: GatewayDeps) {
  const { engine } = deps;
  return onAction(deps)(
    "action.advanced",
    "advance",
    advanceActionInputSchema,
    (input, caller) => engine.advance(actorOf(caller), input),
    true,
  );
}
