import { settledStartPatch } from "../../engine/start-action";
import type { GatewayOutcome } from "../gateway-pipeline";
import { capabilityTarget } from "../permissions";
import { actorOf, type TrustedContext } from "../trusted-context";
import { confirmRunsOnWord } from "./approval-words";
import { capabilityByName } from "./capability-by-name";
import type { GatewayDeps } from "./gateway-deps";
import { startActionInputSchema } from "./operation-schemas";

/**
 * start_action as one step, with a capability named (by id or exact title); start_action as
 * agents call it (by their words, with or without a key) composes this with search and confirm
 * (compose-action-steps.ts).
 */
export function startActionOperation({ capabilities, engine, connectorsFor, pipeline, db }: GatewayDeps) {
  const start = (ctx: TrustedContext | null, raw: unknown, serverKey: { request?: string } | null) =>
    pipeline(
      ctx,
      {
        operation: "action.started",
        verb: "start",
        schema: startActionInputSchema,
        target: async (input, caller) => {
          const named = capabilityByName(input.capability ?? "", capabilities, caller);
          const capability = "capability" in named ? named.capability : undefined;
          // Authorized on the inputs the start runs with (entity_id settled in), never on a
          // patch the engine then changes.
          const own = capability
            ? capability.permissionTarget?.(settledStartPatch(capability, input), await connectorsFor(caller))
            : undefined;
          return { target: own ?? capabilityTarget(capability?.id ?? input.capability ?? ""), capability };
        },
        run: async (input, caller) => {
          const named = capabilityByName(input.capability ?? "", capabilities, caller);
          if ("refusal" in named) return named.refusal;
          return engine.start(actorOf(caller), {
            ...input,
            capability: named.capability.id,
            ...(serverKey
              ? {
                  serverKey: {
                    confirmAllowed: (capability) => confirmRunsOnWord(db, caller, capability),
                    ...(serverKey.request ? { request: serverKey.request } : {}),
                  },
                }
              : {}),
          }) as Promise<GatewayOutcome>;
        },
      },
      raw,
    );
  /**
   * `serverKey`: the composed step's ask for a key of the server's where the agent sent none
   * (server-made-key.ts); `request`: the words it is made for, where the start reads one ask of them.
   */
  return async (
    ctx: TrustedContext | null,
    raw: unknown,
    options: { serverKey?: boolean; request?: string } = {},
  ): Promise<GatewayOutcome> => {
    const out = await start(
      ctx,
      raw,
      options.serverKey === true ? (options.request ? { request: options.request } : {}) : null,
    );
    // A capability name the schema refuses (a character no id or title has): the catalog is the
    // way on, never an answer with nothing to call.
    const badName =
      out.reason === "invalid_arguments" &&
      (out.validation_errors as Array<{ field: string }> | undefined)?.some((e) => e.field === "capability");
    return badName && !out.next_actions.length
      ? {
          ...out,
          next_actions: [
            { tool: "search_capabilities", description: "Find the capability by the user's words" },
          ],
        }
      : out;
  };
}
