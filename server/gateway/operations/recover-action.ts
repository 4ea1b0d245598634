import { actorOf } from "../trusted-context";
import { scopeOf } from "./caller-scope";
import type { GatewayDeps } from "./gateway-deps";
import { onAction } from "./on-action";
import { recoverActionInputSchema } from "./operation-schemas";

/** recover_action: retries an action in `unknown` with its original key, or hands it to a person. */
export function recoverActionOperation(deps: GatewayDeps) {
  const { engine } = deps;
  return onAction(deps)(
    "action.recovered",
    "confirm",
    recoverActionInputSchema,
    (input, caller) => engine.recover(actorOf(caller), input.action_id, scopeOf(caller)),
    true,
  );
}
