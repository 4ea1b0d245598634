import type { AnyCapability, Values } from "../connectors/sdk/define-capability";
import type { ValidationError } from "../connectors/sdk/outcome";
import type { ActionResponse } from "./action-response";
import { refusedPatchMessage, resentPatches } from "./allowed-patch";
import { describeInputs } from "./describe-inputs";

/**
 * A start whose patch holds fields the capability lacks: nothing is created, and the next step is
 * the same call with each field where it was meant and the user's words kept (round 9's offered
 * restart dropped both), one such call per close field where several are, and only a field no
 * field is close to left out (the rest of the patch kept, the field named).
 */
export function startPatchRejected(
  capability: AnyCapability,
  input: { intent?: string; entity_id?: string; patch?: Values },
  allowed: string[],
  problems: ValidationError[],
): ActionResponse {
  const resent = resentPatches(input.patch ?? {}, problems);
  return {
    outcome: "rejected",
    reason: "field_not_allowed",
    message: refusedPatchMessage(problems, allowed),
    retryable: false,
    capability: capability.id,
    allowed_patch: allowed,
    validation_errors: problems,
    inputs: describeInputs(capability),
    next_actions: resent.map(({ patch, resent }) => ({
      tool: "start_action",
      args: {
        capability: capability.id,
        ...(input.intent ? { intent: input.intent } : {}),
        ...(input.entity_id ? { entity_id: input.entity_id } : {}),
        ...(Object.keys(patch).length ? { patch } : {}),
      },
      description: `The same start ${resent}`,
    })),
  };
}
