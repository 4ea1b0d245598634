import type { z } from "zod";
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
  /** Ids for binding signed request state. */
  agentIdOf(ctx: Ctx): string;
}
