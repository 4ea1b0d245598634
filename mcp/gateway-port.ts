import type { z } from "zod";
import type { ApprovalTask, ApprovalTaskStatus, ApprovalTaskWait } from "@/server/gateway/approval-tasks";
import type { OutcomeLike } from "./outcome-output";

/** The eight action primitives, in lifecycle order (cancel ends an open action at any point). */
export const ACTION_TOOLS = [
  "search_capabilities",
  "start_action",
  "get_context",
  "advance_action",
  "confirm_action",
  "verify_action",
  "recover_action",
  "cancel_action",
] as const;
export type ActionToolName = (typeof ACTION_TOOLS)[number];

export type GatewayOutcome = OutcomeLike & Record<string, unknown>;

/** One gateway operation as the MCP face sees it: its strict input schema and its runner. */
export interface GatewayOperation<Ctx> {
  // biome-ignore lint/suspicious/noExplicitAny: each operation has its own object schema
  input: z.ZodObject<any>;
  run(ctx: Ctx, input: Record<string, unknown>): Promise<GatewayOutcome>;
}

/**
 * What the MCP faces need from the gateway. The faces are thin: every rule (permissions,
 * next_actions, versions, approvals, audit) lives behind these calls; the MCP layer only maps
 * tools to operations and shapes results for hosts.
 */
export interface GatewayPort<Ctx> {
  operations: Record<ActionToolName, GatewayOperation<Ctx>>;
  /**
   * The approval's status for the confirmation screen (read-only). Nothing reachable through
   * MCP can approve: a person decides on the console page `approvalUrl` points at.
   */
  approvalStatus(ctx: Ctx, input: Record<string, unknown>): Promise<GatewayOutcome>;
  /** The console page where a signed-in person can approve this action. */
  approvalUrl(actionId: string): string;
  /**
   * Whether the person the caller acts for may decide this action's approval: a host that opens
   * the approval screen for its person is sent there only then (another's approval is said).
   */
  mayApprove?(ctx: Ctx, actionId: string): Promise<boolean>;
  /**
   * The person declined, in the host, the approval it opened for them: withdrawn (the action
   * cancelled) while it still waits at that version; absent: a decline leaves it pending.
   */
  declineApproval?(ctx: Ctx, input: { action_id: string; version: number }): Promise<GatewayOutcome>;
  /** Ids for binding signed request state. */
  agentIdOf(ctx: Ctx): string;
  /** Hosts' waits on a person's approval (MCP Tasks extension); absent: no call answers with a task. */
  approvalTasks?: ApprovalTaskPort<Ctx>;
  /**
   * What a person decided on the caller's actions since it last heard (each action's state as
   * get_context reads it), taken once; `about`: the action this call answers about, not repeated.
   */
  agentNews?(ctx: Ctx, about?: string): Promise<GatewayOutcome[]>;
}

/** The stored side of approval tasks, each read scoped to the caller's own tasks. */
export interface ApprovalTaskPort<Ctx> {
  create(
    ctx: Ctx,
    input: { actionId: string; version: number; tool: string; statusMessage: string },
  ): Promise<ApprovalTask>;
  find(ctx: Ctx, id: string): Promise<ApprovalTask | null>;
  wait(ctx: Ctx, task: ApprovalTask): Promise<ApprovalTaskWait>;
  claim(ctx: Ctx, id: string): Promise<boolean>;
  release(ctx: Ctx, id: string): Promise<void>;
  finish(
    ctx: Ctx,
    id: string,
    end: { status: Exclude<ApprovalTaskStatus, "working">; statusMessage: string; result?: unknown },
  ): Promise<boolean>;
}
