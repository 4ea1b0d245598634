import {
  type ApprovalOutcome,
  type DecideApprovalInput,
  decideApproval,
  decideApprovalInputSchema,
} from "../approvals";
import type { TrustedContext } from "../trusted-context";
import type { GatewayDeps } from "./gateway-deps";

/** A person's decision on an approval (console session or CLI), checked and audited like every operation. */
export function decideApprovalOperation({ db, capabilities, parseAudited, audited }: GatewayDeps) {
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
    return auditedDecision(ctx, parsed.input, () => decideApproval(db, ctx, capabilities, parsed.input));
  }

  return decide;
}
