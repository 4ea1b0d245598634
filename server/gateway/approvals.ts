import { z } from "zod";
import { type AnyCapability, type ApproverRule, approversOf } from "../connectors/sdk/define-capability";
import type { Outcome, OutcomeKind } from "../connectors/sdk/outcome";
import type { Db } from "../db/client";
import { parseActionState } from "../engine/action-state";
import { recordActionEvent } from "../engine/action-store";
import {
  approvalExpiresAt,
  effectiveApprovalStatus,
  findApproval,
  markApprovalExpired,
} from "../engine/approval-ledger";
import type { Role, TrustedContext } from "./trusted-context";

export const decideApprovalInputSchema = z
  .object({
    action_id: z.string().min(1).max(64).describe("The action whose pending approval is decided"),
    version: z
      .number()
      .int()
      .min(1)
      .describe("The action version the person reviewed; a newer version needs a new review"),
    decision: z.enum(["approve", "reject"]).describe("approve or reject"),
    reason: z.string().trim().max(500).optional().describe("Optional reason, shown to the agent on reject"),
  })
  .strict();
export type DecideApprovalInput = z.infer<typeof decideApprovalInputSchema>;

/** What the person's screen shows after their approval ran the action. */
export interface ApprovedResult {
  outcome: OutcomeKind;
  reason?: string;
  /** What happened, in the system's words where it answered. */
  message: string;
  /** The system's reference for an applied change. */
  external_id?: string | null;
  /** The action's status now (completed, applied, unknown, failed, awaiting_approval…). */
  status?: string;
  version?: number;
  /** What happens next, in a person's words. */
  next: string;
}

export type ApprovalOutcome = Outcome<{
  /** What carrying the approved action out gave (decide-approval runs it once approved). */
  result?: ApprovedResult;
  approval?: {
    id: string;
    status: string;
    version: number;
    decided_by?: { name: string; role: string } | null;
    decided_at?: string | null;
    expires_at?: string;
  };
}>;

function refused(
  outcome: ApprovalOutcome["outcome"],
  reason: string,
  message: string,
  extra: Partial<ApprovalOutcome> = {},
): ApprovalOutcome {
  return { outcome, reason, message, retryable: false, next_actions: [], ...extra };
}

/** Whether this person may decide an approval of `action`: the policy says who, nothing else. */
export function mayDecide(
  ctx: Pick<TrustedContext, "kind" | "userId" | "role">,
  action: { userId: string },
  rule: ApproverRule,
): boolean {
  if (ctx.kind !== "person") return false;
  if (rule.subject && action.userId === ctx.userId) return true;
  return rule.roles.includes(ctx.role);
}

/**
 * Whether the person an agent acts for may decide its action's pending approval themselves: a
 * host that opens the approval screen for its person (URL elicitation) sends them there only
 * then. Set V: a support agent's host opened an admin's approval for him, and the model read
 * only that a call waited, never that an admin decides.
 */
export async function callerMayDecide(
  db: Db,
  capabilities: ReadonlyMap<string, AnyCapability>,
  ctx: TrustedContext,
  actionId: string,
): Promise<boolean> {
  const action = await db.action.findFirst({ where: { id: actionId, tenantId: ctx.tenantId } });
  if (!action) return false;
  const approval = await findApproval(db, action.id, action.version);
  const rule = approversOf(capabilities.get(action.capability), approval?.summary);
  return mayDecide({ kind: "person", userId: ctx.userId, role: ctx.role }, action, rule);
}

/** Who may decide, in words: "Alice (the person it is for)", "an admin". */
export function describeApprovers(rule: ApproverRule, subjectName: string): string {
  const who: string[] = [];
  if (rule.subject) who.push(subjectName);
  for (const role of rule.roles) who.push(`an ${role === "admin" ? "admin" : role}`);
  return who.join(" or ") || "nobody";
}

async function applyDecision(
  db: Db,
  input: {
    approvalId: string;
    actionId: string;
    version: number;
    decision: "approve" | "reject";
    reason?: string;
    deciderId: string;
    via: "console" | "cli";
  },
): Promise<Date | null> {
  const status = input.decision === "approve" ? "approved" : "rejected";
  const decidedAt = new Date();
  // One transaction: an approval marked decided must never leave its action undecided.
  return db.$transaction(async (tx) => {
    // Conditional on still pending and unexpired: two deciders cannot both win, and a request
    // that ran out cannot be granted by a click that raced its expiry.
    const updated = await tx.approval.updateMany({
      where: {
        id: input.approvalId,
        status: "pending",
        OR: [{ expiresAt: null }, { expiresAt: { gt: decidedAt } }],
      },
      data: {
        status,
        decidedById: input.deciderId,
        decidedVia: input.via,
        reason: input.reason ?? null,
        decidedAt,
      },
    });
    if (updated.count !== 1) return null;
    await tx.action.updateMany({ where: { id: input.actionId, version: input.version }, data: { status } });
    await recordActionEvent(tx, {
      actionId: input.actionId,
      version: input.version,
      kind: status,
      node: "APPROVAL",
      data: { via: input.via, decided_by: input.deciderId, reason: input.reason ?? null },
    });
    return decidedAt;
  });
}

/**
 * A person decides an action's pending approval, on Signpost's own origin (console session or
 * CLI). Who may is the capability's policy — by default only the person the action is for —
 * and the decision binds to the version reviewed, its summary digest and the approval's expiry.
 */
export async function decideApproval(
  db: Db,
  ctx: TrustedContext,
  capabilities: ReadonlyMap<string, AnyCapability>,
  input: DecideApprovalInput,
): Promise<ApprovalOutcome> {
  if (ctx.kind !== "person")
    return refused(
      "rejected",
      "person_required",
      "Only a signed-in person can approve; an agent's word is not an approval",
    );
  const action = await db.action.findFirst({ where: { id: input.action_id, tenantId: ctx.tenantId } });
  // Members must not learn that someone else's action exists.
  if (!action || (ctx.role === "member" && action.userId !== ctx.userId))
    return refused("not_found", "action_not_found", `No action ${input.action_id}`);
  const approval = await findApproval(db, action.id, action.version);
  const rule = approversOf(capabilities.get(action.capability), approval?.summary);
  if (!mayDecide(ctx, action, rule)) {
    const subject = await db.user.findFirst({ where: { id: action.userId, tenantId: ctx.tenantId } });
    return refused(
      "rejected",
      "not_your_approval",
      `Only ${describeApprovers(rule, subject?.name ?? "the person it is for")} can decide this action`,
    );
  }
  if (!approval)
    return refused(
      "conflict",
      "no_pending_approval",
      "This action has no approval to decide at its current version",
      {
        version: action.version,
      },
    );
  if (input.version !== action.version)
    return refused(
      "conflict",
      "stale_version",
      `This changed since (now version ${action.version}); review again`,
      {
        version: action.version,
      },
    );
  const status = effectiveApprovalStatus(approval);
  if (status === "expired") {
    await markApprovalExpired(db, approval.id);
    return refused(
      "conflict",
      "approval_expired",
      `This request expired at ${approvalExpiresAt(approval).toISOString()}; the agent has to ask again`,
      {
        version: action.version,
        approval: { id: approval.id, status: "expired", version: approval.version },
      },
    );
  }
  if (status !== "pending")
    return refused("conflict", "already_decided", `Already ${status}`, {
      version: action.version,
      approval: { id: approval.id, status, version: approval.version },
    });
  if (parseActionState(action.state).digest !== approval.summaryDigest)
    return refused(
      "conflict",
      "summary_changed",
      "What was shown no longer matches the action; review again",
      {
        version: action.version,
      },
    );
  const decidedAt = await applyDecision(db, {
    approvalId: approval.id,
    actionId: action.id,
    version: action.version,
    decision: input.decision,
    reason: input.reason,
    deciderId: ctx.userId,
    via: ctx.face === "cli" ? "cli" : "console",
  });
  if (!decidedAt) {
    const now = await findApproval(db, action.id, action.version);
    const reason = now && effectiveApprovalStatus(now) === "expired" ? "approval_expired" : "already_decided";
    return refused(
      "conflict",
      reason,
      reason === "approval_expired" ? "This request expired meanwhile" : "The approval was decided meanwhile",
    );
  }
  const decided = input.decision === "approve" ? "approved" : "rejected";
  const by = { name: ctx.name, role: ctx.role as Role };
  const at = `${decidedAt.toISOString().slice(11, 16)} UTC`;
  return {
    outcome: "applied",
    message:
      decided === "approved"
        ? `Approved by ${by.name} at ${at}`
        : `Rejected by ${by.name} at ${at}: the agent is told${input.reason ? " your reason" : ""} and cannot confirm this version`,
    retryable: false,
    action_id: action.id,
    version: action.version,
    approval: {
      id: approval.id,
      status: decided,
      version: action.version,
      decided_by: by,
      decided_at: decidedAt.toISOString(),
      expires_at: approvalExpiresAt(approval).toISOString(),
    },
    next_actions: [],
  };
}

/**
 * What the confirmation screen inside an MCP host may read about an action's approval: its
 * status and who decided. Harmless to poll: it carries nothing that could approve.
 */
export async function approvalStatus(db: Db, ctx: TrustedContext, actionId: string) {
  const action = await db.action.findFirst({
    where: {
      id: actionId,
      tenantId: ctx.tenantId,
      ...(ctx.kind === "agent" || ctx.role === "member" ? { userId: ctx.userId } : {}),
    },
  });
  if (!action) return null;
  const approval = await findApproval(db, action.id, action.version);
  const decider = approval?.decidedById
    ? await db.user.findFirst({
        where: { id: approval.decidedById, tenantId: ctx.tenantId },
        select: { name: true, role: true },
      })
    : null;
  return {
    action_id: action.id,
    version: action.version,
    action_status: action.status,
    approval: approval
      ? {
          status: effectiveApprovalStatus(approval),
          version: approval.version,
          expires_at: approvalExpiresAt(approval).toISOString(),
          decided_by: decider,
          decided_at: approval.decidedAt?.toISOString() ?? null,
          reason: approval.reason,
        }
      : null,
  };
}
