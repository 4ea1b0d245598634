import { z } from "zod";
import { actionKeyFor } from "../../engine/effect-ledger";
import { actionOwnerContext } from "../action-owner-context";
import type { ApprovedResult } from "../approvals";
import type { GatewayOutcome } from "../gateway-pipeline";
import { actorOf, type TrustedContext } from "../trusted-context";
import { writeStepTarget } from "./action-target";
import type { GatewayDeps } from "./gateway-deps";
import { confirmActionInputSchema } from "./operation-schemas";

/**
 * The confirm a person's approval runs: confirm_action's own fields, plus which approval and
 * which person ran it, so the audit row says so. Never offered to an agent (no face lists it).
 */
export const approvedConfirmInputSchema = confirmActionInputSchema
  .extend({
    approval_id: z.string().min(1).max(64).describe("The approval whose decision ran this confirm"),
    approved_by: z.string().min(1).max(64).describe("The person who approved"),
  })
  .strict();

/** What happens next after each outcome, for the person who approved. */
function nextFor(out: GatewayOutcome): string {
  switch (out.outcome) {
    case "applied":
      return "Nothing else to do: the agent gets this same result when it checks, never a second one.";
    case "unknown":
      return "The system did not answer in time, so it may or may not have happened. Signpost checks with the system by this action's key; if it cannot tell, support settles it in the recovery queue. Do not approve it again.";
    case "temporarily_unavailable":
      return "Nothing was sent. Your approval stands until it expires: the agent can try again with the same key, which never applies twice.";
    case "conflict":
      return "Nothing was sent. Review the new version; it needs your approval again.";
    default:
      return "Nothing was sent. The agent is told why and may prepare a new version for you to approve.";
  }
}

/**
 * Runs the confirm of an action a person has just approved, through the same pipeline as an
 * agent's confirm_action: as the action's own trusted context (its tenant, agent and person,
 * read from the stored action), authorized as that agent, under the effect ledger with the
 * action key as idempotency key, audited `action.confirmed` naming the approval and the person.
 * The engine re-checks the approval, its digest and the live data before anything is sent.
 */
export function applyApprovedActionOperation(deps: GatewayDeps) {
  const { db, engine, pipeline } = deps;
  return async function applyApproved(
    person: TrustedContext,
    approved: { actionId: string; version: number; approvalId: string },
  ): Promise<ApprovedResult> {
    const action = await db.action.findFirst({ where: { id: approved.actionId, tenantId: person.tenantId } });
    if (!action) return { outcome: "not_found", message: `No action ${approved.actionId}`, next: "" };
    const owner = await actionOwnerContext(db, action, person);
    if (!owner)
      return {
        outcome: "rejected",
        reason: "agent_revoked",
        message: "Approved, but not carried out: the agent that prepared it no longer has access",
        next: "Nothing was sent. Whoever still wants it has to prepare it again.",
      };
    const out = await pipeline(
      owner,
      {
        operation: "action.confirmed",
        verb: "confirm",
        schema: approvedConfirmInputSchema,
        target: (input, caller) => writeStepTarget(deps, caller, input.action_id),
        run: (input, caller) =>
          engine.confirm(actorOf(caller), {
            action_id: input.action_id,
            version: input.version,
            idempotency_key: input.idempotency_key,
          }) as Promise<GatewayOutcome>,
      },
      {
        action_id: action.id,
        version: approved.version,
        idempotency_key: actionKeyFor({ ...action, version: approved.version }),
        approval_id: approved.approvalId,
        approved_by: person.userId,
      },
    );
    return {
      outcome: out.outcome,
      ...(out.reason ? { reason: out.reason } : {}),
      message: out.message,
      external_id: typeof out.external_id === "string" ? out.external_id : null,
      ...(typeof out.status === "string" ? { status: out.status } : {}),
      ...(typeof out.version === "number" ? { version: out.version } : {}),
      next: nextFor(out),
    };
  };
}
