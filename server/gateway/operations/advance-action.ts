import { actorOf } from "../trusted-context";
import { confirmRunsOnWord } from "./approval-words";
import type { GatewayDeps } from "./gateway-deps";
import { onAction } from "./on-action";
import { advanceActionInputSchema } from "./operation-schemas";

/**
 * advance_action as one step: a patch to one action (compose-action-steps.ts adds confirm-at-once
 * with a key). `serverKey`: the composed step's ask for a key of the server's where the agent sent
 * none (server-made-key.ts); never from the arguments.
 */
export function advanceActionOperation(deps: GatewayDeps) {
  const { engine, db } = deps;
  const advance = (serverKey: boolean) =>
    onAction(deps)(
      "action.advanced",
      "advance",
      advanceActionInputSchema,
      (input, caller) =>
        engine.advance(actorOf(caller), {
          ...input,
          ...(serverKey
            ? { serverKey: { confirmAllowed: (capability) => confirmRunsOnWord(db, caller, capability) } }
            : {}),
        }),
      true,
    );
  const plain = advance(false);
  const keyed = advance(true);
  return (ctx: Parameters<typeof plain>[0], raw: unknown, options: { serverKey?: boolean } = {}) =>
    (options.serverKey ? keyed : plain)(ctx, raw);
}
