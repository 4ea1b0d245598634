import type { Actor, AnyCapability } from "../connectors/sdk/define-capability";
import { type ActionResponse, notFoundAction, respond } from "./action-response";
import { parseActionState } from "./action-state";
import { type ActionRow, type ActorScope, loadActionWithCapability } from "./action-store";
import { withApprovalRun } from "./approval-run";
import type { EngineDeps } from "./engine-deps";
import { whatWasDone } from "./what-was-done";

/** Re-reads an action to resume it, with its inputs and the JSON Schema of the patch it accepts now. */
export async function getActionContext(
  deps: EngineDeps,
  actor: Actor,
  actionId: string,
  scope: ActorScope = "own",
): Promise<ActionResponse> {
  const found = await loadActionWithCapability(deps, actor, actionId, scope);
  if (!found) return notFoundAction(actionId);
  const { row, capability } = found;
  const answer = await respond(
    deps,
    capability,
    row,
    { outcome: "applied", message: contextMessage(capability, row), retryable: false },
    { withInputs: true, withSchema: true, options: "full" },
  );
  // Read once the person approved: whether their approval carried it out, and if not, why.
  return withApprovalRun(deps, row, answer);
}

/**
 * Where the action stands; one refused at its start says why, and that it is over. One carried
 * out says first what moved, as the person approved it ("Refund $7.00 to Visa •••• 4242: done"):
 * the read a careful model makes after its person approved answers in its first line.
 */
function contextMessage(capability: AnyCapability, row: ActionRow): string {
  const title = capability.title;
  if (row.status === "completed" || row.status === "applied") {
    const what = whatWasDone(capability, parseActionState(row.state).summary);
    return `${what}: done${row.status === "completed" ? " and verified" : ""}`;
  }
  if (row.status !== "refused") return `${title}: ${row.status} at ${row.node}`;
  const why = parseActionState(row.state).validation_errors[0]?.message ?? "refused";
  return `${title}: refused at ${row.node} (${why}); it ended there, nothing is held or left open`;
}
