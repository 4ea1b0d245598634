import { approvalStatus } from "../approvals";
import type { GatewayOutcome } from "../gateway-pipeline";
import type { TrustedContext } from "../trusted-context";
import type { GatewayDeps } from "./gateway-deps";
import { approvalStatusInputSchema } from "./operation-schemas";

/** approval_status: what the confirmation screen inside an MCP host polls. */
export function approvalStatusOperation({ db, parseAudited, audited }: GatewayDeps) {
  /**
   * What the confirmation screen inside an MCP host polls: the approval's status and who decided,
   * audited `approval.status_read`. Read-only: it carries nothing that could approve.
   */
  async function readApprovalStatus(ctx: TrustedContext, raw: unknown): Promise<GatewayOutcome> {
    const parsed = await parseAudited(ctx, "approval.status_read", approvalStatusInputSchema, raw);
    if (!parsed.ok) return parsed.out;
    const id = parsed.input.action_id;
    return audited(
      ctx,
      "approval.status_read",
      parsed.input,
      `action:${id}`,
      async (): Promise<GatewayOutcome> => {
        const status = await approvalStatus(db, ctx, id);
        if (!status)
          return {
            outcome: "not_found",
            reason: "action_not_found",
            message: `No action ${id}`,
            retryable: false,
            next_actions: [],
          };
        const a = status.approval;
        const message = !a
          ? `No approval requested (the action is ${status.action_status})`
          : a.status === "pending"
            ? `pending until ${a.expires_at.slice(11, 16)} UTC`
            : a.decided_by && a.decided_at
              ? `${a.status} by ${a.decided_by.name} at ${a.decided_at.slice(11, 16)} UTC`
              : a.status;
        return { outcome: "applied", message, retryable: false, ...status, next_actions: [] };
      },
    );
  }

  return readApprovalStatus;
}
