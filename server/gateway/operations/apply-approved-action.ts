import { z } from "zod";
import type { Db } from "../../db/client";
import { parseActionState } from "../../engine/action-state";
import type { ApprovalRunNote } from "../../engine/approval-run";
import { actionKeyFor } from "../../engine/effect-ledger";
import { whatWasDone } from "../../engine/what-was-done";
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

/**
 * What happens next after each outcome, for the person who approved: each says what was sent,
 * as it is (a refusal by the system was sent and refused; a permission the agent lacks sent
 * nothing), and what happens now.
 */
function nextFor(out: GatewayOutcome, refusedBySystem: boolean): string {
  switch (out.outcome) {
    case "applied":
      return "Nothing else to do: the agent gets this same result when it checks, never a second one.";
    case "unknown":
      return "The system did not answer in time, so it may or may not have happened. Signpost checks with the system by this action's key; if it cannot tell, support settles it in the recovery queue. Do not approve it again.";
    case "temporarily_unavailable":
      return "The system could not be reached, so nothing was changed there. Your approval stands until it expires: the agent can try again with the same key, which never applies twice.";
    case "conflict":
      return "Nothing was sent. Review the new version; it needs your approval again.";
  }
  if (out.reason === "permission_required")
    return "Nothing was sent: the agent that prepared it needs an admin's permission to carry this out, and has none yet. Your approval stands until it expires; the agent's next confirm_action asks an admin, and once granted it carries out exactly this, once.";
  if (out.reason === "permission_denied")
    return "Nothing was sent: a permission rule forbids the agent that prepared it to carry this out. Your approval stands until it expires, but nothing happens unless an admin changes that rule.";
  if (out.reason === "not_applied")
    return `It was sent, and the system did not do it (${out.message.replace(/^The system answered but did not do it: /, "")}). The agent may try again or prepare a new version for you to approve.`;
  if (refusedBySystem)
    return `It was sent, and the system refused it: ${out.message}. Nothing was changed there; the agent may prepare a new version for you to approve.`;
  return "Nothing was sent. The agent learns why when it checks the action, and may prepare a new version for you to approve.";
}

/**
 * The same outcome for the agent, as get_context's one line (and confirm_action as it now is):
 * the agent was told its person's approval carries it out and that nothing is to be called, so
 * this is where it learns the run did not. Each next step is the one the outcome leaves: a
 * missing permission is asked for by the agent's own confirm_action; a rule that forbids it
 * leaves nothing to call; an unanswered send is verified; the rest the action's own steps say.
 */
function agentNote(out: GatewayOutcome, refusedBySystem: boolean): ApprovalRunNote {
  const ended = `the approval's run ended ${out.reason ?? out.outcome}`;
  switch (out.outcome) {
    case "unknown":
      return {
        line: `${ended}: sent, result not known yet; verify_action asks the system by the action key`,
      };
    case "temporarily_unavailable":
      return {
        line: `${ended}: the system was not reached, nothing changed there; confirm_action retries with the same key`,
      };
    case "conflict":
      return {
        line: `${ended}: nothing was sent, what was approved no longer matches the system; the user approves the new version`,
      };
  }
  if (out.reason === "permission_required")
    return {
      line: `${ended}: nothing was sent; confirm_action asks an admin for this agent's permission`,
      confirm:
        "Asks an admin for the permission; once granted, the same call carries out the approved version once",
    };
  if (out.reason === "permission_denied")
    return {
      line: `${ended}: nothing was sent, a rule forbids this agent; nothing to call: tell the user an admin must change the rule`,
      confirm: null,
    };
  if (out.reason === "not_applied")
    return { line: `${ended}: sent, the system did not do it (${out.message})` };
  return {
    line: `${ended}: ${refusedBySystem ? "sent and refused by the system" : "nothing was sent"} (${out.message})`,
  };
}

/** The system's own refusal of the action's last send (its last error), if there was one. */
async function systemRefusal(db: Db, actionId: string) {
  const row = await db.action.findUnique({ where: { id: actionId }, select: { state: true } });
  return row ? parseActionState(row.state).last_error : null;
}

/**
 * Runs the confirm of an action a person has just approved, through the same pipeline as an
 * agent's confirm_action: as the action's own trusted context (its tenant, agent and person,
 * read from the stored action), authorized as that agent, under the effect ledger with the
 * action key as idempotency key, audited `action.confirmed` naming the approval and the person.
 * The engine re-checks the approval, its digest and the live data before anything is sent.
 */
export function applyApprovedActionOperation(deps: GatewayDeps) {
  const { db, engine, pipeline, audit } = deps;
  return async function applyApproved(
    person: TrustedContext,
    approved: { actionId: string; version: number; approvalId: string },
  ): Promise<ApprovedResult> {
    const started = Date.now();
    const args = {
      action_id: approved.actionId,
      version: approved.version,
      approval_id: approved.approvalId,
      approved_by: person.userId,
    };
    /** An approval that runs nothing is on record too: every approval's outcome is traceable. */
    const notRun = async (result: ApprovedResult, actionId: string | null) => {
      await audit(person, {
        operation: "action.confirmed",
        target: `action:${approved.actionId}`,
        arguments: { ...args, reason: result.reason },
        outcome: result.outcome,
        message: result.message,
        latencyMs: Date.now() - started,
        actionId,
      });
      return result;
    };
    const action = await db.action.findFirst({ where: { id: approved.actionId, tenantId: person.tenantId } });
    if (!action)
      return notRun(
        {
          outcome: "rejected",
          reason: "not_found",
          message: `Approved, but not carried out: no action ${approved.actionId}`,
          next: "Nothing was sent.",
        },
        null,
      );
    const owner = await actionOwnerContext(db, action, person);
    if (!owner)
      return notRun(
        {
          outcome: "rejected",
          reason: "agent_revoked",
          message: "Approved, but not carried out: the agent that prepared it no longer has access",
          next: "Nothing was sent. Whoever still wants it has to prepare it again.",
        },
        action.id,
      );
    const out = await pipeline(
      owner,
      {
        operation: "action.confirmed",
        verb: "confirm",
        schema: approvedConfirmInputSchema,
        // The person clicked, not the agent: no permission request is filed in its name.
        filesPermissionRequest: false,
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
    // A refusal the system itself answered (a 4xx) was sent: the engine records it as the
    // action's last error, where a refusal before sending leaves none.
    const refusedBySystem =
      out.outcome === "rejected" && (await systemRefusal(db, action.id))?.message === out.message;
    // The version the run left the action at: a conflict made a new one, whose answers say it.
    if (out.outcome !== "applied")
      await engine.noteApprovalRun(
        action.id,
        typeof out.version === "number" ? out.version : approved.version,
        agentNote(out, refusedBySystem),
      );
    // Carried out: what moved, as the person approved it ("Refund $7.00 to Visa •••• 4242"),
    // beside which the screen says "Done" and the reference. The effect's own words ("Submit the
    // after-sales request: done") read as a request filed, not money moved (issue 23).
    const capability = deps.capabilities.get(action.capability);
    const message =
      out.outcome === "applied" && capability
        ? `${whatWasDone(capability, parseActionState(action.state).summary)}${out.status === "completed" ? "; verified at the system of record" : ""}`
        : out.message;
    return {
      outcome: out.outcome,
      ...(out.reason ? { reason: out.reason } : {}),
      message,
      external_id: typeof out.external_id === "string" ? out.external_id : null,
      ...(typeof out.status === "string" ? { status: out.status } : {}),
      ...(typeof out.version === "number" ? { version: out.version } : {}),
      next: nextFor(out, refusedBySystem),
    };
  };
}
