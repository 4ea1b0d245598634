import type { z } from "zod";
import type { ActionResponse } from "../../engine/action-response";
import type { GatewayOutcome } from "../gateway-pipeline";
import type { PermissionVerb } from "../permissions";
import type { TrustedContext } from "../trusted-context";
import { actionTarget, writeStepTarget } from "./action-target";
import type { GatewayDeps } from "./gateway-deps";

/**
 * Builds an operation on one existing action (advance, confirm, verify, recover, cancel):
 * authorized against the action's capability, or a write step's own target where it `writes`.
 */
export function onAction(deps: GatewayDeps) {
  const { pipeline } = deps;
  return <S extends z.ZodType<{ action_id: string }>>(
    operation: string,
    verb: PermissionVerb,
    schema: S,
    run: (input: z.infer<S>, caller: TrustedContext) => Promise<ActionResponse>,
    writes = false,
  ) =>
    (ctx: TrustedContext | null, raw: unknown) =>
      pipeline(
        ctx,
        {
          operation,
          verb,
          schema,
          target: (input, caller) =>
            writes
              ? writeStepTarget(deps, caller, input.action_id)
              : actionTarget(deps, caller, input.action_id),
          run: (input, caller) => run(input, caller) as Promise<GatewayOutcome>,
        },
        raw,
      );
}
