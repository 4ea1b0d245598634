import { randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import { approvalStatus } from "./approvals";
import type { TrustedContext } from "./trusted-context";

export type ApprovalTaskStatus = "working" | "completed" | "cancelled" | "failed";

/** A host's wait on a person's approval (MCP Tasks extension), as the MCP face reads it. */
export interface ApprovalTask {
  id: string;
  actionId: string;
  version: number;
  tool: string;
  status: ApprovalTaskStatus;
  statusMessage: string | null;
  /** The tool result the task completed with (a CallToolResult), once completed. */
  result: Record<string, unknown> | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}

/** Where the approval a task waits on stands: still with the person, or decided (or moot). */
export type ApprovalTaskWait = { waiting: true; expiresAt: string | null } | { waiting: false };

/**
 * How long a task is kept after it was made: a day, beyond any approval's default expiry, so a
 * host that polls late still reads how it ended.
 */
export const APPROVAL_TASK_KEEP_MS = 24 * 60 * 60 * 1000;
/** A claim older than this is taken over: the instance that held it stopped mid-confirm. */
const STALE_CLAIM_MS = 60 * 1000;

/**
 * The database side of approval tasks. A task belongs to the agent whose call made it: every
 * read is scoped by the tenant and agent of the trusted context, so another agent's task id is
 * not found. Running the confirm when the person decides is the MCP face's (it shapes the tool
 * result); here is the claim that lets one instance do it while polls from others wait.
 */
export function approvalTasks(db: Db) {
  const owner = (ctx: TrustedContext) => ({
    tenantId: ctx.tenantId,
    agentId: ctx.agentId ?? `user:${ctx.userId}`,
  });

  return {
    async create(
      ctx: TrustedContext,
      input: { actionId: string; version: number; tool: string; statusMessage: string },
    ): Promise<ApprovalTask> {
      const now = Date.now();
      const row = await db.mcpTask.create({
        data: {
          id: randomBytes(32).toString("base64url"),
          ...owner(ctx),
          actionId: input.actionId,
          version: input.version,
          tool: input.tool,
          status: "working",
          statusMessage: input.statusMessage,
          createdAt: new Date(now),
          expiresAt: new Date(now + APPROVAL_TASK_KEEP_MS),
        },
      });
      return toTask(row);
    },

    /** The caller's own task, unless it is gone or past its keep time. */
    async find(ctx: TrustedContext, id: string): Promise<ApprovalTask | null> {
      const row = await db.mcpTask.findFirst({
        where: { id, ...owner(ctx), expiresAt: { gt: new Date() } },
      });
      return row ? toTask(row) : null;
    },

    /** Whether the person still has to decide the version this task waits on. */
    async wait(ctx: TrustedContext, task: ApprovalTask): Promise<ApprovalTaskWait> {
      const status = await approvalStatus(db, ctx, task.actionId);
      if (
        status &&
        status.version === task.version &&
        status.action_status === "awaiting_approval" &&
        status.approval?.status === "pending"
      )
        return { waiting: true, expiresAt: status.approval.expires_at };
      return { waiting: false };
    },

    /** Takes the task for this instance to finish; false when another holds a fresh claim or it ended. */
    async claim(ctx: TrustedContext, id: string): Promise<boolean> {
      const { count } = await db.mcpTask.updateMany({
        where: {
          id,
          ...owner(ctx),
          status: "working",
          OR: [{ claimedAt: null }, { claimedAt: { lt: new Date(Date.now() - STALE_CLAIM_MS) } }],
        },
        data: { claimedAt: new Date() },
      });
      return count === 1;
    },

    /** Gives a claim back without ending the task (the person had not decided after all). */
    async release(ctx: TrustedContext, id: string): Promise<void> {
      await db.mcpTask.updateMany({ where: { id, ...owner(ctx) }, data: { claimedAt: null } });
    },

    /** Ends a working task once; false when it had already ended. */
    async finish(
      ctx: TrustedContext,
      id: string,
      end: { status: Exclude<ApprovalTaskStatus, "working">; statusMessage: string; result?: unknown },
    ): Promise<boolean> {
      const { count } = await db.mcpTask.updateMany({
        where: { id, ...owner(ctx), status: "working" },
        data: {
          status: end.status,
          statusMessage: end.statusMessage,
          result: end.result === undefined ? null : JSON.stringify(end.result),
        },
      });
      return count === 1;
    },
  };
}

export type ApprovalTasks = ReturnType<typeof approvalTasks>;

function toTask(row: {
  id: string;
  actionId: string;
  version: number;
  tool: string;
  status: string;
  statusMessage: string | null;
  result: string | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}): ApprovalTask {
  return {
    id: row.id,
    actionId: row.actionId,
    version: row.version,
    tool: row.tool,
    status: row.status as ApprovalTaskStatus,
    statusMessage: row.statusMessage,
    result: row.result ? (JSON.parse(row.result) as Record<string, unknown>) : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    expiresAt: row.expiresAt,
  };
}
