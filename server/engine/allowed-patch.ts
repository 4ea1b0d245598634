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
 * field at all, then with the field most likely meant (`closest`), so the next call sends it
 * there. The agent is told; nothing is ever moved onto the other field without its call.
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
        message: `${capability.id} has no field ${f}${meant ? `; closest: ${meant.field}${meant.because ? ` (${meant.because})` : ""}` : ""}`,
        ...(meant ? { closest: meant.field } : {}),
      };
    });
}

/**
 * The one line of a patch refused for its fields: each field and the one meant, the fields
 * accepted, and that nothing was applied. The whole patch is refused, never the valid part
 * applied alone: part of a change could move the action on (to a new summary, even a new
 * approval request) on values the agent did not mean together, and would bump the version its
 * corrected call names. So the corrected call (same version, every field it sent) just works.
 */
export function refusedPatchMessage(problems: ValidationError[], allowed: string[]): string {
  return `${problems.map((p) => p.message).join("; ")}. Accepted: ${allowed.join(", ") || "none"}. Nothing was applied`;
}

/** What the call a refused patch offers does with it: each field renamed, or the fields left out. */
export function resentAs(problems: ValidationError[], corrected: boolean): string {
  return corrected
    ? `with ${problems.map((p) => `${p.closest} for ${p.field}`).join(", ")}`
    : `without ${problems.map((p) => p.field).join(", ")}`;
}

/** The patch without the fields no field of the capability means: what the agent's next call may keep. */
export function patchWithout(
  patch: Record<string, unknown>,
  problems: ValidationError[],
): Record<string, unknown> {
  const refused = new Set(problems.map((p) => p.field));
  return Object.fromEntries(Object.entries(patch).filter(([f]) => !refused.has(f)));
}

/**
 * The patch with each field it lacks sent where the capability most likely meant it (the
 * problems' `closest`), for the corrected call a rejection offers (round 9's model sent
 * `comment`, was told `body`, and the offered restart dropped its words and value); undefined
 * when some field has no clear meaning. Nothing is taken by it: the agent sends the call, so the
 * field it means is still its choice.
 */
export function correctedPatch(
  patch: Record<string, unknown>,
  problems: ValidationError[],
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [f, value] of Object.entries(patch)) {
    const problem = problems.find((p) => p.field === f);
    if (!problem) {
      out[f] = value;
      continue;
    }
    if (!problem.closest || problem.closest in out) return undefined;
    out[problem.closest] = value;
  }
  return out;
}
