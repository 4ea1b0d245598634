import type { AnyCapability } from "../connectors/sdk/define-capability";
import type { ValidationError } from "../connectors/sdk/outcome";
import { allPatchFields } from "./describe-inputs";
import { fieldsMeant } from "./field-meant";

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
      const close = fieldsMeant(
        capability,
        f,
        patch[f],
        allowed.filter((a) => !(a in patch)),
      );
      const meant = close.length === 1 ? close[0] : undefined;
      const named = meant
        ? `; closest: ${meant.field}${meant.because ? ` (${meant.because})` : ""}`
        : close.length
          ? `; closest: ${close.map((c) => c.field).join(" or ")}`
          : "";
      return {
        field: f,
        code: "field_not_allowed",
        message: `${capability.id} has no field ${f}${named}`,
        ...(meant ? { closest: meant.field } : {}),
        ...(close.length > 1 ? { closest_either: close.map((c) => c.field) } : {}),
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

/**
 * The calls a refused patch offers, each with what it does: every field renamed where one field
 * is close (its value kept), one call per close field where several are (the agent chooses;
 * nothing is guessed), and only a field no field is close to left out. Issue 23 played: items
 * sent to after_sales was offered "without items", losing which item to return.
 */
export function resentPatches(
  patch: Record<string, unknown>,
  problems: ValidationError[],
): { patch: Record<string, unknown>; resent: string }[] {
  let out = [{ patch: {} as Record<string, unknown>, renamed: [] as string[], dropped: [] as string[] }];
  for (const [f, value] of Object.entries(patch)) {
    const problem = problems.find((p) => p.field === f);
    const names = !problem ? [f] : problem.closest ? [problem.closest] : (problem.closest_either ?? []);
    if (!names.length) {
      for (const o of out) o.dropped.push(f);
      continue;
    }
    // A field already sent under the name meant keeps that value; this one is left out. Each
    // field with several close names multiplies the calls: four at most.
    out = out
      .flatMap((o) => {
        const free = names.filter((n) => !(n in o.patch));
        if (!free.length) return [{ ...o, dropped: [...o.dropped, f] }];
        return free.map((n) => ({
          patch: { ...o.patch, [n]: value },
          renamed: problem ? [...o.renamed, `${n} for ${f}`] : o.renamed,
          dropped: o.dropped,
        }));
      })
      .slice(0, 4);
  }
  return out.map((o) => ({
    patch: o.patch,
    resent: [
      o.renamed.length ? `with ${o.renamed.join(", ")}` : "",
      o.dropped.length ? `without ${o.dropped.join(", ")}` : "",
    ]
      .filter(Boolean)
      .join(", "),
  }));
}
