import {
  type ApprovalOutcome,
  type ApprovedResult,
  type DecideApprovalInput,
  decideApproval,
  decideApprovalInputSchema,
} from "../approvals";
import type { TrustedContext } from "../trusted-context";
import { leaveAgentNews } from "./agent-news";
import { applyApprovedActionOperation } from "./apply-approved-action";
import type { GatewayDeps } from "./gateway-deps";

/** How the approval's run ended, in the decision's one line: an unknown result is not "not done". */
function resultWords(outcome: ApprovedResult["outcome"]): string {
  if (outcome === "applied") return "done";
  if (outcome === "unknown")
    return "sent, result not known yet (Signpost verifies it with the system; if it cannot tell, support settles it in recovery)";
  return "not done";
}

/**
 * A person's decision on an approval (console session or CLI), checked and audited like every
 * operation. An approval that completes the decision also carries the action out at once: the
 * person's approval is what the agent waited for, so it does not have to come back to confirm.
 */
export function decideApprovalOperation(deps: GatewayDeps) {
  const { db, capabilities, parseAudited, audited } = deps;
  const applyApproved = applyApprovedActionOperation(deps);

  /** A person's decision on an approval, audited `approval.approved|rejected` before the answer. */
  const auditedDecision = (
    ctx: TrustedContext,
    input: DecideApprovalInput,
    decide: () => Promise<ApprovalOutcome>,
  ) =>
    audited(
      ctx,
      input.decision === "approve" ? "approval.approved" : "approval.rejected",
      input,
      `action:${input.action_id}`,
      decide,
    );

  /** A person approves or rejects an action's pending approval (console session or CLI). */
  async function decide(ctx: TrustedContext, raw: unknown): Promise<ApprovalOutcome> {
    const parsed = await parseAudited(ctx, "approval.decided", decideApprovalInputSchema, raw);
    if (!parsed.ok) return parsed.out as ApprovalOutcome;
    const decided = await auditedDecision(ctx, parsed.input, () =>
      decideApproval(db, ctx, capabilities, parsed.input),
    );
    if (decided.outcome !== "applied" || !decided.action_id) return decided;
    // Only this decision's winner gets here with "approved" (the decision's update is
    // conditional), so one click runs the confirm once; a racing agent confirm meets the ledger.
    const approval = decided.approval?.status === "approved" ? decided.approval : null;
    const result = approval
      ? await applyApproved(ctx, {
          actionId: decided.action_id,
          version: approval.version,
          approvalId: approval.id,
        })
      : null;
    // The agent was told "nothing to call now": its next call brings how this ended.
    await leaveAgentNews(db, ctx.tenantId, decided.action_id);
    if (!result) return decided;
    return {
      ...decided,
      message: `${decided.message}; ${resultWords(result.outcome)}: ${result.message}`,
      result,
    };
  }

  return decide;
}
