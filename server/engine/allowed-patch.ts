import type { AnyCapability } from "../connectors/sdk/define-capability";
import type { ValidationError } from "../connectors/sdk/outcome";
import { allPatchFields } from "./describe-inputs";
import { fieldMeant } from "./field-meant";

/** Statuses in which an action still takes patches (a rejected approval can be answered with a change). */
export const PATCHABLE = ["open", "awaiting_approval", "approved", "rejected"];

/**
 * The fields a patch may carry now. The entity an action is about is fixed once it is named;
 * a finished action and a read capability that has answered take no patch. Without a status
 * (an action not created yet) every field is open.
 */
export function allowedPatch(capability: AnyCapability, entityId: string | null, status?: string): string[] {
  if (status && !PATCHABLE.includes(status)) return [];
  // A read capability that still waits for input (its entity) takes it, as next_actions say.
  if (capability.policy.effect === "read" && status && status !== "open") return [];
  const locked = entityId && capability.appliesTo.field ? [capability.appliesTo.field] : [];
  return allPatchFields(capability).filter((f) => !locked.includes(f));
}

/**
 * One error per patch field outside `allowed`: locked (a field of this capability) or not a
 * field at all, then with the field most likely meant, so the next call sends it there.
 */
export function patchProblems(
  capability: AnyCapability,
  patch: Record<string, unknown>,
  allowed: string[],
): ValidationError[] {
  const known = allPatchFields(capability);
  return Object.keys(patch)
    .filter((f) => !allowed.includes(f))
    .map((f) => {
      if (known.includes(f))
        return {
          field: f,
          code: "field_locked",
          message: `${f} cannot be changed in this action now; start a new action instead`,
        };
      const meant = fieldMeant(
        capability,
        f,
        patch[f],
        allowed.filter((a) => !(a in patch)),
      );
      return {
        field: f,
        code: "field_not_allowed",
        message: meant
          ? `${capability.id} has no field ${f}; the one meant is likely ${meant.field} (${meant.because}): send the value as ${meant.field}; nothing was taken`
          : `${f} is not a field of ${capability.id}; allowed: ${allowed.join(", ") || "none"}`,
      };
    });
}

/**
 * The patch with each field it lacks sent where the capability most likely meant it, for the
 * corrected call a rejection offers (round 9's model sent `comment`, was told `body`, and the
 * offered restart dropped its words and value); undefined when some field has no clear meaning.
 * Nothing is taken by it: the agent sends the call, so the field it means is still its choice.
 */
export function correctedPatch(
  capability: AnyCapability,
  patch: Record<string, unknown>,
  allowed: string[],
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [f, value] of Object.entries(patch)) {
    if (allowed.includes(f)) {
      out[f] = value;
      continue;
    }
    const meant = fieldMeant(
      capability,
      f,
      value,
      allowed.filter((a) => !(a in patch)),
    );
    if (!meant || meant.field in out) return undefined;
    out[meant.field] = value;
  }
  return out;
}
