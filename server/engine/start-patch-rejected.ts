import type { AnyCapability, Values } from "../connectors/sdk/define-capability";
import type { ValidationError } from "../connectors/sdk/outcome";
import type { ActionResponse } from "./action-response";
import { correctedPatch, patchWithout, refusedPatchMessage, resentAs } from "./allowed-patch";
import { describeInputs } from "./describe-inputs";

/**
 * A start whose patch holds fields the capability lacks: nothing is created, and the next step is
 * the same call with each field where it was meant and the user's words kept (round 9's offered
 * restart dropped both), or, when a field means nothing clear, the same call without it (the
 * rest of the patch kept, the field named).
 */
export function startPatchRejected(
  capability: AnyCapability,
  input: { intent?: string; entity_id?: string; patch?: Values },
  allowed: string[],
  problems: ValidationError[],
): ActionResponse {
  const corrected = correctedPatch(input.patch ?? {}, problems);
  const rest = patchWithout(input.patch ?? {}, problems);
  const patch = corrected ?? (Object.keys(rest).length ? rest : undefined);
  return {
    outcome: "rejected",
    reason: "field_not_allowed",
    message: refusedPatchMessage(problems, allowed),
    retryable: false,
    capability: capability.id,
    allowed_patch: allowed,
    validation_errors: problems,
    inputs: describeInputs(capability),
    next_actions: [
      {
        tool: "start_action",
        args: {
          capability: capability.id,
          ...(input.intent ? { intent: input.intent } : {}),
          ...(input.entity_id ? { entity_id: input.entity_id } : {}),
          ...(patch ? { patch } : {}),
        },
        description: `The same start ${resentAs(problems, !!corrected)}`,
      },
    ],
  };
}
