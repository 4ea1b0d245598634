import { z } from "zod";
import { actorOf } from "../trusted-context";
import type { GatewayDeps } from "./gateway-deps";
import { onAction } from "./on-action";

/** The face's own (no tool takes it): the action and the version whose approval was declined. */
export const declineApprovalInputSchema = z
  .object({ action_id: z.string().min(1).max(64), version: z.number().int().min(1) })
  .strict();

/**
 * The person declined, in their MCP host (URL elicitation), to decide an approval the host was
 * asked to open for them: the pending approval is withdrawn and the action cancelled, only while
 * it still waits on them at that version (the engine's update is conditional on it). Whatever
 * reaches an MCP client never approves; a decline can only withdraw, which moves nothing, and
 * is no more than cancel_action lets the agent do (the same permission verb). Audited
 * `approval.declined`, so support sees the host's answer, not an agent's cancel.
 */
export function declineApprovalOperation(deps: GatewayDeps) {
  return onAction(deps)("approval.declined", "advance", declineApprovalInputSchema, (input, caller) =>
    deps.engine.cancel(actorOf(caller), input.action_id, { declinedVersion: input.version }),
  );
}
