import { actorOf } from "../trusted-context";
import type { GatewayDeps } from "./gateway-deps";
import { onAction } from "./on-action";
import { confirmActionInputSchema } from "./operation-schemas";

/** confirm_action: runs the action's effect once, under its action key, where its approval (if any) was given. */
export function confirmActionOperation(deps: GatewayDeps) {
  const { engine } = deps;
  return onAction(deps)(
    "action.confirmed",
    "confirm",
    confirmActionInputSchema,
    (input, caller) => engine.confirm(actorOf(caller), input),
    true,
  );
}
