import type { ActionResponse } from "./action-response";
import type { ActionRow } from "./action-store";
import { recordActionEvent } from "./action-store";
import type { EngineDeps } from "./engine-deps";

const KIND = "approval_run";

/**
 * How a person's approval's own run of the confirm ended, when it did not carry the action out
 * (the gateway runs it: decide-approval). The agent was told "nothing to call now", so the next
 * get_context is where it learns this: one short line with the outcome and the next step, and
 * confirm_action as that outcome makes it. Written by the gateway, which knows why (a permission
 * this agent lacks never reaches the engine).
 */
export interface ApprovalRunNote {
  /** "the approval's run ended permission_required: nothing was sent; …" */
  line: string;
  /** confirm_action's description now; null: no step (a rule forbids it); absent: as computed. */
  confirm?: string | null;
}

/** Notes how the approval's run of `version` ended, in the action's history. */
export async function noteApprovalRun(
  deps: EngineDeps,
  actionId: string,
  version: number,
  note: ApprovalRunNote,
): Promise<void> {
  const row = await deps.db.action.findUnique({ where: { id: actionId }, select: { node: true } });
  if (!row) return;
  await recordActionEvent(deps.db, { actionId, version, kind: KIND, node: row.node, data: note });
}

/**
 * The answer with the note of its version's approval run, while the action still waits on it
 * (a later version, or a finished action, has its own story): the line after the message, and
 * confirm_action re-described or left out as the outcome says.
 */
export async function withApprovalRun(
  deps: EngineDeps,
  row: ActionRow,
  answer: ActionResponse,
): Promise<ActionResponse> {
  if (["completed", "cancelled", "refused", "awaiting_approval"].includes(row.status)) return answer;
  const event = await deps.db.actionEvent.findFirst({
    where: { actionId: row.id, version: row.version, kind: KIND },
    orderBy: { createdAt: "desc" },
  });
  const note = event?.data as ApprovalRunNote | undefined;
  if (!note?.line) return answer;
  const next = answer.next_actions.flatMap((n) => {
    if (n.tool !== "confirm_action" || note.confirm === undefined) return [n];
    return note.confirm === null ? [] : [{ ...n, description: note.confirm }];
  });
  return { ...answer, message: `${answer.message}; ${note.line}`, next_actions: next };
}
