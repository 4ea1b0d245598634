import { actorOf } from "../trusted-context";
import type { GatewayDeps } from "./gateway-deps";
import { onAction } from "./on-action";
import { confirmActionInputSchema, serverKeyConfirmSchema } from "./operation-schemas";

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

/**
 * The same confirm, sent by the gateway under a key it made for a change nobody approves
 * (compose-action-steps.ts): its own permission check and audit row, the key on it server-made.
 */
export function confirmWithServerKeyOperation(deps: GatewayDeps) {
  const { engine } = deps;
  return onAction(deps)(
    "action.confirmed",
    "confirm",
    serverKeyConfirmSchema,
    (input, caller) => engine.confirm(actorOf(caller), input),
    true,
  );
}
