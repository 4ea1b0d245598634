import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "../db/client";
import { parseActionState } from "../engine/action-state";
import { recordActionEvent } from "../engine/action-store";
import { findApproval } from "../engine/approval-ledger";
import type { Outcome } from "../engine/outcome";
import type { TrustedContext } from "./trusted-context";

/** How long a confirmation-screen token lives: long enough to read and click, short enough to be useless later. */
export const APPROVAL_TOKEN_TTL_MS = 10 * 60 * 1000;

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

export const decideWithTokenInputSchema = decideApprovalInputSchema
  .extend({
    approval_token: z
      .string()
      .min(16)
      .max(200)
      .describe("The single-use token the confirmation screen received"),
  })
  .strict();
export type DecideWithTokenInput = z.infer<typeof decideWithTokenInputSchema>;

export type ApprovalOutcome = Outcome<{ approval?: { id: string; status: string; version: number } }>;

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

function refused(
  outcome: ApprovalOutcome["outcome"],
  reason: string,
  message: string,
  extra: Partial<ApprovalOutcome> = {},
): ApprovalOutcome {
  return { outcome, reason, message, retryable: false, next_actions: [], ...extra };
}

async function loadForDecision(db: Db, tenantId: string, actionId: string) {
  const action = await db.action.findFirst({ where: { id: actionId, tenantId } });
  if (!action) return null;
  return { action, approval: await findApproval(db, actionId, action.version) };
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
    via: "console" | "mcp_app" | "cli";
    tokenHash?: string;
  },
): Promise<boolean> {
  const status = input.decision === "approve" ? "approved" : "rejected";
  // One transaction: an approval marked decided must never leave its action undecided.
  return db.$transaction(async (tx) => {
    // Conditional on still pending (and on the unused token): two deciders cannot both win.
    const updated = await tx.approval.updateMany({
      where: {
        id: input.approvalId,
        status: "pending",
        ...(input.tokenHash ? { tokenHash: input.tokenHash, tokenUsedAt: null } : {}),
      },
      data: {
        status,
        decidedById: input.deciderId,
        decidedVia: input.via,
        reason: input.reason ?? null,
        decidedAt: new Date(),
        ...(input.tokenHash ? { tokenUsedAt: new Date() } : {}),
      },
    });
    if (updated.count !== 1) return false;
    await tx.action.updateMany({ where: { id: input.actionId, version: input.version }, data: { status } });
    await recordActionEvent(tx, {
      actionId: input.actionId,
      version: input.version,
      kind: status,
      node: "APPROVAL",
      data: { via: input.via, reason: input.reason ?? null },
    });
    return true;
  });
}

function checkBinding(
  action: { version: number; state: unknown },
  approval: { status: string; version: number; summaryDigest: string } | null,
  version: number,
): ApprovalOutcome | null {
  if (!approval)
    return refused(
      "conflict",
      "no_pending_approval",
      "This action has no approval to decide at its current version",
      { version: action.version },
    );
  if (version !== action.version)
    return refused(
      "conflict",
      "stale_version",
      `This changed since (now version ${action.version}); review again`,
      { version: action.version },
    );
  if (approval.status !== "pending")
    return refused("conflict", "already_decided", `Already ${approval.status}`, {
      version: action.version,
      approval: { id: "", status: approval.status, version: approval.version },
    });
  if (parseActionState(action.state).digest !== approval.summaryDigest)
    return refused(
      "conflict",
      "summary_changed",
      "What was shown no longer matches the action; review again",
      { version: action.version },
    );
  return null;
}

/**
 * A person decides an action's pending approval. Only a person (never an agent) acting for the
 * action's user, or an admin of the tenant, may; the decision binds to the version reviewed.
 */
export async function decideApproval(
  db: Db,
  ctx: TrustedContext,
  input: DecideApprovalInput,
): Promise<ApprovalOutcome> {
  if (ctx.kind !== "person")
    return refused(
      "rejected",
      "person_required",
      "Only a signed-in person can approve; an agent's word is not an approval",
    );
  const found = await loadForDecision(db, ctx.tenantId, input.action_id);
  if (!found) return refused("not_found", "action_not_found", `No action ${input.action_id}`);
  const { action, approval } = found;
  if (action.userId !== ctx.userId && ctx.role !== "admin") {
    // Members must not learn that someone else's action exists.
    return ctx.role === "member"
      ? refused("not_found", "action_not_found", `No action ${input.action_id}`)
      : refused(
          "rejected",
          "not_your_approval",
          "Only the person the action is for, or an admin, can decide it",
        );
  }
  const bad = checkBinding(action, approval, input.version);
  if (bad || !approval) return bad ?? refused("conflict", "no_pending_approval", "Nothing to decide");
  const ok = await applyDecision(db, {
    approvalId: approval.id,
    actionId: action.id,
    version: action.version,
    decision: input.decision,
    reason: input.reason,
    deciderId: ctx.userId,
    via: ctx.face === "cli" ? "cli" : "console",
  });
  if (!ok) return refused("conflict", "already_decided", "The approval was decided meanwhile");
  return decided(action.id, action.version, approval.id, input.decision);
}

function decided(
  actionId: string,
  version: number,
  approvalId: string,
  decision: "approve" | "reject",
): ApprovalOutcome {
  const status = decision === "approve" ? "approved" : "rejected";
  return {
    outcome: "applied",
    message:
      decision === "approve"
        ? "Approved: the agent can now confirm this exact version"
        : "Rejected: the agent will be told and cannot confirm this version",
    retryable: false,
    action_id: actionId,
    version,
    approval: { id: approvalId, status, version },
    // What the agent will see next.
    next_actions:
      decision === "approve"
        ? [
            {
              tool: "confirm_action",
              args: { action_id: actionId, version },
              description: "The agent may now confirm with an idempotency_key",
            },
          ]
        : [
            {
              tool: "advance_action",
              args: { action_id: actionId, version },
              description: "The agent may change the action; a change needs a new approval",
            },
          ],
  };
}

/**
 * Issues the single-use token for the MCP Apps confirmation screen of a pending approval. Only
 * its hash is stored, bound to the approval row (action, version, digest); a new token replaces
 * the previous one. The caller must put it where only the screen sees it (`_meta`), never where
 * the model reads.
 */
export async function issueApprovalToken(
  db: Db,
  ctx: TrustedContext,
  input: { action_id: string; version: number },
) {
  const action = await db.action.findFirst({
    where: { id: input.action_id, tenantId: ctx.tenantId, userId: ctx.userId },
  });
  if (!action || action.version !== input.version) return null;
  const approval = await findApproval(db, action.id, action.version);
  if (approval?.status !== "pending") return null;
  const token = `apt_${randomBytes(24).toString("base64url")}`;
  const expires = new Date(Date.now() + APPROVAL_TOKEN_TTL_MS);
  const updated = await db.approval.updateMany({
    where: { id: approval.id, status: "pending" },
    data: { tokenHash: sha256(token), tokenExpires: expires, tokenUsedAt: null },
  });
  if (updated.count !== 1) return null;
  return { token, expires_at: expires.toISOString() };
}

/** A decision carried by the confirmation screen's token: valid once, before expiry, for the version it was issued for. */
export async function decideApprovalWithToken(
  db: Db,
  ctx: TrustedContext,
  input: DecideWithTokenInput,
): Promise<ApprovalOutcome> {
  const tokenHash = sha256(input.approval_token);
  const approval = await db.approval.findUnique({ where: { tokenHash } });
  if (!approval || approval.tenantId !== ctx.tenantId || approval.actionId !== input.action_id)
    return refused("rejected", "invalid_approval_token", "The approval token is not valid for this action");
  if (approval.tokenUsedAt)
    return refused("rejected", "approval_token_used", "The approval token was already used");
  if (!approval.tokenExpires || approval.tokenExpires.getTime() <= Date.now())
    return refused(
      "rejected",
      "approval_token_expired",
      "The approval token has expired; reopen the confirmation screen",
    );
  if (approval.version !== input.version)
    return refused("rejected", "invalid_approval_token", "The approval token was issued for another version");
  const found = await loadForDecision(db, ctx.tenantId, input.action_id);
  if (!found) return refused("not_found", "action_not_found", `No action ${input.action_id}`);
  if (found.action.userId !== ctx.userId)
    return refused("rejected", "invalid_approval_token", "The approval token is not valid for this caller");
  const bad = checkBinding(found.action, found.approval?.id === approval.id ? approval : null, input.version);
  if (bad) return bad;
  const ok = await applyDecision(db, {
    approvalId: approval.id,
    actionId: approval.actionId,
    version: approval.version,
    decision: input.decision,
    reason: input.reason,
    deciderId: approval.userId,
    via: "mcp_app",
    tokenHash,
  });
  if (!ok) return refused("rejected", "approval_token_used", "The approval token was already used");
  return decided(approval.actionId, approval.version, approval.id, input.decision);
}

export const listApprovalsInputSchema = z
  .object({
    status: z
      .enum(["pending", "approved", "rejected", "voided"])
      .optional()
      .describe("Filter by status; default pending"),
  })
  .strict();

/** Approvals a person may see: members their own, admins and support the tenant's; newest first. */
export async function listApprovals(
  db: Db,
  ctx: TrustedContext,
  input: z.infer<typeof listApprovalsInputSchema> = {},
) {
  const rows = await db.approval.findMany({
    where: {
      tenantId: ctx.tenantId,
      status: input.status ?? "pending",
      ...(ctx.role === "member" || ctx.kind === "agent" ? { userId: ctx.userId } : {}),
    },
    orderBy: { createdAt: "desc" },
    take: 200,
    include: { action: { select: { capability: true, version: true, status: true, agentId: true } } },
  });
  return rows.map((r) => ({
    id: r.id,
    action_id: r.actionId,
    capability: r.action.capability,
    version: r.version,
    current_version: r.action.version,
    status: r.status,
    summary: r.summary,
    user_id: r.userId,
    agent_id: r.action.agentId,
    created_at: r.createdAt.toISOString(),
    decided_at: r.decidedAt?.toISOString() ?? null,
    decided_via: r.decidedVia,
  }));
}
