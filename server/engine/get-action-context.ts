import type { Actor } from "../connectors/sdk/define-capability";
import { type ActionResponse, notFoundAction, respond } from "./action-response";
import { parseActionState } from "./action-state";
import { type ActionRow, type ActorScope, loadActionWithCapability } from "./action-store";
import { withApprovalRun } from "./approval-run";
import type { EngineDeps } from "./engine-deps";

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
    { outcome: "applied", message: contextMessage(capability.title, row), retryable: false },
    { withInputs: true, withSchema: true, options: "full" },
  );
  // Read once the person approved: whether their approval carried it out, and if not, why.
  return withApprovalRun(deps, row, answer);
}

/** Where the action stands; one refused at its start says why, and that it is over. */
function contextMessage(title: string, row: ActionRow): string {
  if (row.status !== "refused") return `${title}: ${row.status} at ${row.node}`;
  const why = parseActionState(row.state).validation_errors[0]?.message ?? "refused";
  return `${title}: refused at ${row.node} (${why}); it ended there, nothing is held or left open`;
}
