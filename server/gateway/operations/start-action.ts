import { settledStartPatch } from "../../engine/start-action";
import type { GatewayOutcome } from "../gateway-pipeline";
import { capabilityTarget } from "../permissions";
import { actorOf, type TrustedContext } from "../trusted-context";
import type { GatewayDeps } from "./gateway-deps";
import { startActionInputSchema } from "./operation-schemas";

/**
 * start_action as one step, with a capability named; start_action as agents call it (by their
 * words, with a key) composes this with search and confirm (compose-action-steps.ts).
 */
export function startActionOperation({ capabilities, engine, connectorsFor, pipeline }: GatewayDeps) {
  return (ctx: TrustedContext | null, raw: unknown) =>
    pipeline(
      ctx,
      {
        operation: "action.started",
        verb: "start",
        schema: startActionInputSchema,
        target: async (input, caller) => {
          const capability = capabilities.get(input.capability ?? "");
          // Authorized on the inputs the start runs with (entity_id settled in), never on a
          // patch the engine then changes.
          const own = capability
            ? capability.permissionTarget?.(settledStartPatch(capability, input), await connectorsFor(caller))
            : undefined;
          return { target: own ?? capabilityTarget(input.capability ?? ""), capability };
        },
        run: (input, caller) =>
          engine.start(actorOf(caller), {
            ...input,
            capability: input.capability ?? "",
          }) as Promise<GatewayOutcome>,
      },
      raw,
    );
}
