import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type McpServer,
  ProtocolError,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import type { ApprovalTask } from "@/server/gateway/approval-tasks";
import { scrubVaultValues } from "@/server/vault-values";
import type { ApprovalTaskPort, GatewayOutcome, GatewayPort } from "./gateway-port";

/** The Tasks extension of MCP 2026-07-28 (SEP-2663). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
/** How often a host should ask: people take seconds to minutes to decide. */
const POLL_INTERVAL_MS = 2000;
/** JSON-RPC code of the spec's "Missing required client capability". */
const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;

/**
 * True when this request's client declared the Tasks extension (per-request capabilities,
 * 2026-07-28): only then may a call answer with a task (the spec's MUST NOT otherwise).
 */
export function clientDeclaresTasks(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const caps = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  const declared = (caps as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[
    TASKS_EXTENSION
  ];
  return !!declared && typeof declared === "object";
}

export interface ApprovalTaskOptions<Ctx> {
  gateway: GatewayPort<Ctx>;
  /** The caller of the request a task method came in. */
  contextOf(ctx: ServerContext): Ctx;
  /** The tool result an outcome is shown as (the same text and structure as a direct call). */
  toResult(outcome: GatewayOutcome, tool: "confirm_action"): CallToolResult;
}

/**
 * The CreateTaskResult a call answers with when it stopped at a person's approval and the
 * client can wait: the task is stored first (a tasks/get for it resolves on any instance).
 * The approval link rides in the status message, which hosts may show to the person.
 */
export async function createApprovalTask<Ctx>(
  tasks: ApprovalTaskPort<Ctx>,
  context: Ctx,
  input: { actionId: string; version: number; tool: string; approvalUrl: string },
): Promise<Record<string, unknown>> {
  const task = await tasks.create(context, {
    actionId: input.actionId,
    version: input.version,
    tool: input.tool,
    statusMessage: waitingMessage(input.actionId, input.version, input.approvalUrl),
  });
  return { resultType: "task", ...wireTask(task) };
}

function waitingMessage(actionId: string, version: number, url: string): string {
  return `Waiting for a person to approve ${actionId} (version ${version}) at ${url}; this task completes when they decide.`;
}

const taskIdParam = z.string().min(1).max(200).describe("The task id a tools/call answered with");
const meta = z.record(z.string(), z.unknown()).optional();
// Built once: the handlers are registered on every request's server.
const taskParams = z.object({ taskId: taskIdParam, _meta: meta }).strict();
const taskUpdateParams = z
  .object({ taskId: taskIdParam, inputResponses: z.record(z.string(), z.unknown()), _meta: meta })
  .strict();

/**
 * tasks/get, tasks/update and tasks/cancel for the approval tasks (MCP Tasks extension,
 * 2026-07-28). The SDK (2.4.0) has no runtime for the extension: these are plain request
 * handlers on its documented 3-argument `setRequestHandler`, which it lets through its era
 * gate for the extension's method names. State is in the database, so any instance answers.
 *
 * A poll does the work: while the person has not decided the task is `working`; once they
 * have (or the approval expired, or the action moved on), the first poll to claim it runs the
 * confirm as the agent would — permission-checked, audited, exactly once through the effect
 * ledger, verified — and the task completes with that tool result: applied and verified, the
 * person's reason, or the expiry (the person is asked again as a new version).
 */
export function registerApprovalTaskHandlers<Ctx>(server: McpServer, options: ApprovalTaskOptions<Ctx>) {
  const found = options.gateway.approvalTasks;
  if (!found) return;
  const tasks: ApprovalTaskPort<Ctx> = found;
  const { contextOf, gateway } = options;

  const requireExtension = (ctx: ServerContext) => {
    if (!clientDeclaresTasks(ctx))
      throw new ProtocolError(MISSING_REQUIRED_CLIENT_CAPABILITY, "Missing required client capability", {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      });
  };
  const own = async (context: Ctx, taskId: string) => {
    const task = await tasks.find(context, taskId);
    // The same answer for another agent's task as for none: its existence is not told.
    if (!task) throw new ProtocolError(-32602, "Failed to retrieve task: Task not found");
    return task;
  };

  server.server.setRequestHandler("tasks/get", { params: taskParams }, async (params, ctx) => {
    requireExtension(ctx);
    const context = contextOf(ctx);
    const task = await advance(context, await own(context, params.taskId));
    return detailedTask(task);
  });

  server.server.setRequestHandler("tasks/update", { params: taskUpdateParams }, async (params, ctx) => {
    requireExtension(ctx);
    // These tasks never ask the client for input (the person decides in the console), so
    // every response is for a key that is not outstanding: ignored, as the spec says.
    await own(contextOf(ctx), params.taskId);
    return {};
  });

  server.server.setRequestHandler("tasks/cancel", { params: taskParams }, async (params, ctx) => {
    requireExtension(ctx);
    const context = contextOf(ctx);
    const task = await own(context, params.taskId);
    if (task.status !== "working") return {};
    // Cancelling the wait cancels the action: the same cancel_action the agent could call,
    // with its permission check and audit row. An action already applied cannot be cancelled;
    // then the task completes with that answer instead.
    if (!(await tasks.claim(context, task.id))) return {};
    const outcome = await gateway.operations.cancel_action.run(context, { action_id: task.actionId });
    if (outcome.outcome === "applied")
      await tasks.finish(context, task.id, {
        status: "cancelled",
        statusMessage: `Cancelled: ${String(outcome.message ?? "the action was cancelled")}`,
      });
    else await tasks.release(context, task.id);
    return {};
  });

  /** Moves a working task on when its approval has been decided; returns it as it now stands. */
  async function advance(context: Ctx, task: ApprovalTask): Promise<ApprovalTask> {
    if (task.status !== "working") return task;
    const wait = await tasks.wait(context, task);
    if (wait.waiting) return task;
    if (!(await tasks.claim(context, task.id))) return task; // another poll is finishing it
    const outcome = await gateway.operations.confirm_action.run(context, {
      action_id: task.actionId,
      version: task.version,
      // One key per task: polls racing on two instances resend the same confirm, never a second one.
      idempotency_key: `task-${task.id}`,
    });
    if (outcome.outcome === "rejected" && outcome.reason === "approval_pending") {
      // Decided a moment ago by nobody after all (e.g. a race with a re-ask): keep waiting.
      await tasks.release(context, task.id);
      return task;
    }
    // Inline in the task exactly as the call would have answered on the 2026-07-28 wire.
    const result = {
      ...(scrubVaultValues(options.toResult(outcome, "confirm_action")) as CallToolResult),
      resultType: "complete",
    };
    await tasks.finish(context, task.id, {
      status: "completed",
      statusMessage: String(outcome.message ?? outcome.outcome),
      result,
    });
    return (await tasks.find(context, task.id)) ?? task;
  }
}

/** The wire Task (SEP-2663): status, timestamps, ttl and poll interval. */
function wireTask(task: ApprovalTask): Record<string, unknown> {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt.toISOString(),
    lastUpdatedAt: task.updatedAt.toISOString(),
    ttlMs: Math.max(0, task.expiresAt.getTime() - task.createdAt.getTime()),
    pollIntervalMs: POLL_INTERVAL_MS,
  };
}

/** tasks/get's DetailedTask: a completed task carries its tool result inline. */
function detailedTask(task: ApprovalTask): Record<string, unknown> {
  return {
    ...wireTask(task),
    ...(task.status === "completed" && task.result ? { result: task.result } : {}),
  };
}
