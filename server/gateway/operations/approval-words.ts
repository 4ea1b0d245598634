import { type AnyCapability, approversOf } from "../../connectors/sdk/define-capability";
import type { Db } from "../../db/client";
import { authorize, capabilityTarget, type PermissionVerb } from "../permissions";
import type { TrustedContext } from "../trusted-context";

/**
 * The words of a change that runs on the agent's word: its start runs it (on a record the user
 * named or the only one it fits; else the answer says whom to ask), key or not.
 */
export const RUNS_ON_START = "no approval: start_action runs it";

/**
 * Whether a person must approve a capability before it runs, for this caller, in the few words a
 * capability line carries ("approval: the user"; "no approval: start_action runs it"). From the
 * decisions the gateway will make: this caller's permission for start and confirm (an admin's
 * `ask` rule puts a person first; previewed, never consuming a grant or filing a request), then
 * the capability's approval rule (a condition on the request is said as declared).
 * A rule that denies this caller the start or the confirm is said as such.
 */
export async function approvalWords(
  db: Db,
  caller: TrustedContext,
  capability: AnyCapability,
): Promise<string> {
  const decide = (verb: PermissionVerb) =>
    authorize(db, caller, verb, capabilityTarget(capability.id), capability, { preview: true });
  const decisions = await Promise.all((["start", "confirm"] as const).map(decide));
  if (decisions.some((d) => d.decision === "deny")) return "not allowed: an admin's rule denies it";
  const permission = decisions.some((d) => d.decision === "ask") ? "an admin's permission" : null;
  const rule = capability.policy.approval;
  const person =
    rule === "always"
      ? approverWords(capability)
      : typeof rule === "function"
        ? (capability.policy.approvalWhen ?? "depends on the request")
        : null;
  if (permission || person) return `approval: ${[permission, person].filter(Boolean).join(", then ")}`;
  // A read answers at its start: no key is needed for it.
  return capability.policy.effect === "read" ? "no approval (a read)" : RUNS_ON_START;
}

/**
 * Whether a change this caller started, which the capability's rule lets run without a person,
 * is also let through by the caller's confirm permission: then its start (or the advance that
 * completes it) runs it at once, under the agent's key or one the server makes (server-made-key.ts).
 */
export async function confirmRunsOnWord(
  db: Db,
  caller: TrustedContext,
  capability: AnyCapability,
): Promise<boolean> {
  const target = capabilityTarget(capability.id);
  const d = await authorize(db, caller, "confirm", target, capability, { preview: true });
  return d.decision === "allow";
}

/** Who decides an approval the rule always asks for ("the user", "an admin"). */
function approverWords(capability: AnyCapability): string {
  const rule = typeof capability.policy.approvers === "function" ? null : approversOf(capability, {});
  if (!rule) return "a person";
  const who = [
    ...(rule.subject ? ["the user"] : []),
    ...rule.roles.map((role) => `${/^[aeiou]/.test(role) ? "an" : "a"} ${role}`),
  ];
  return who.join(" or ") || "a person";
}
