import { actorOf } from "../trusted-context";
import { scopeOf } from "./caller-scope";
import type { GatewayDeps } from "./gateway-deps";
import { onAction } from "./on-action";
import { verifyActionInputSchema } from "./operation-schemas";

/** verify_action: asks the system of record by action key whether the effect happened. */
export function verifyActionOperation(deps: GatewayDeps) {
  const { engine } = deps;
  return onAction(deps)("action.verified", "navigate", verifyActionInputSchema, (input, caller) =>
    engine.verify(actorOf(caller), input.action_id, scopeOf(caller)),
  );
}
