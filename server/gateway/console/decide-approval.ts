import { z } from "zod";
import type { Db } from "../../db/client";
import type { ConsoleContext } from "../console-session";
import { type ConsoleResult, fail, ok } from "./console-result";
import { recordConsoleAudit } from "./record-console-audit";

export const decideApprovalInputSchema = z
  .object({
    decision: z.enum(["approve", "reject"]),
    /** The version the person was shown: a decision on anything else is refused. */
    version: z.number().int().positive(),
    /** The digest of the summary the person was shown, when the page had it. */
    digest: z.string().regex(/^[a-f0-9]{64}$/).optional(),
    reason: z.string().trim().max(500).optional(),
  })
  .strict();

export type ApprovalDecision = {
  approvalId: string;
  actionId: string;
  status: "approved" | "rejected";
  version: number;
  /** What the agent gets on its next confirm_action, in words a person understands. */
  agentWillSee: string;
};

/**
 * Records a person's approval or rejection through the console session. Only the person the
 * approval is for, or an admin of the tenant, may decide; support may not. The decision binds to
 * the version shown: if the action moved on since, it is a conflict ("this changed since").
 */
export async function decideApproval(
  db: Db,
  ctx: ConsoleContext,
  actionId: string,
  input: z.infer<typeof decideApprovalInputSchema>,
): Promise<ConsoleResult<ApprovalDecision>> {
  const startedAt = Date.now();
  const action = await db.action.findFirst({ where: { id: actionId, tenantId: ctx.tenantId } });
  // Another tenant's action, or (for a member) someone else's, does not exist for this person.
  if (!action || (ctx.role === "member" && action.userId !== ctx.userId)) return fail("not_found", "No such action.");
  if (ctx.role === "support") return fail("forbidden", "Support cannot approve or reject actions for a user.");

  const approval = await db.approval.findFirst({
    where: { actionId, tenantId: ctx.tenantId },
    orderBy: { version: "desc" },
  });
  if (!approval) return fail("conflict", "This action has no approval request.", { currentVersion: action.version });
  if (approval.version !== action.version || input.version !== action.version || approval.status === "voided") {
    return fail("conflict", "This changed since you opened it: review again.", { currentVersion: action.version });
  }
  if (input.digest && input.digest !== approval.summaryDigest) {
    return fail("conflict", "This changed since you opened it: review again.", { currentVersion: action.version });
  }
  if (approval.status !== "pending") {
    return fail("conflict", `Already ${approval.status}.`, { currentVersion: action.version, status: approval.status });
  }
  const status = input.decision === "approve" ? "approved" : "rejected";
  // Conditional update: of two concurrent decisions exactly one wins, on any number of instances.
  const updated = await db.approval.updateMany({
    where: { id: approval.id, status: "pending", version: action.version },
    data: {
      status,
      decidedById: ctx.userId,
      decidedVia: "console",
      reason: input.reason ?? null,
      decidedAt: new Date(),
    },
  });
  if (updated.count !== 1) return fail("conflict", "Someone decided this a moment ago.", { currentVersion: action.version });
  await db.actionEvent.create({
    data: {
      actionId,
      version: action.version,
      kind: status,
      node: action.node,
      data: { decidedBy: ctx.userId, via: "console", reason: input.reason ?? null },
    },
  });
  await recordConsoleAudit(db, ctx, {
    operation: status === "approved" ? "approval.approved" : "approval.rejected",
    target: actionId,
    capability: action.capability,
    arguments: { version: input.version, reason: input.reason ?? null },
    outcome: "applied",
    actionId,
    startedAt,
  });
  return ok({
    approvalId: approval.id,
    actionId,
    status,
    version: action.version,
    agentWillSee:
      status === "approved"
        ? "The agent's confirm_action for this version now runs the effect once and returns its result."
        : "The agent's confirm_action is refused: you rejected it" + (input.reason ? ` (“${input.reason}”).` : "."),
  });
}
