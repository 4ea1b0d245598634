/** The part of an answer the approval's next steps read and change (an MCP result, a browse outcome). */
interface AwaitingApproval {
  message?: unknown;
  reason?: string;
  approval?: unknown;
  next_actions?: Array<{ tool: string; description: string; requires_user_approval?: boolean }>;
}

/**
 * What an agent is told once about an approval its person makes at the link, in every face:
 * the person's approval runs the confirm itself (the gateway's decide-approval), so nothing is
 * left to call; the agent's next call brings the result anyway (mcp/agent-news.ts), and the person
 * saw it on their screen. Round 18's model read the action after every approval while the text
 * said "get_context reads it at once": the read is named for after the approval, no sooner, and
 * as the one call that shows the result (a careful model makes one; issue 23: "whatever you call"
 * named none, and it guessed confirm_action, refused for its missing key). Sets P–R: told
 * "afterwards get_context shows the result", models read it after every approval, though the
 * person's screen had shown it and the next call brings it: the read is named only for a user
 * who asks before then. "Once they decide": set DE's players waited on an admin who had not, and
 * read "your next call brings the result" as broken when the next call brought none.
 * `readsResult` is how this face reads the result: `get_context` on the
 * action face, `navigate actions://…` on the browse face (which has no get_context).
 */
export function approvalCarries(readsResult: string): string {
  return `their approval at the link carries it out and shows them the result: nothing to call now or after (your next call once they decide brings the result; ${readsResult} reads it sooner if the user asks)`;
}

/**
 * The next steps of an answer waiting on a person's approval, as this host can take them. The
 * engine offers confirm_action there for every face; which call is right depends on the host:
 *
 * - a host that opens URLs for the person (URL elicitation): confirm_action sends them to the
 *   approval screen and the same call finishes once they approved, so it is the next call;
 * - any other host (a plain one, a form-only one, an MCP Apps host whose screen opens the console
 *   page, every browse agent): the person approves at the link and that approval carries the
 *   change out, so listing confirm_action would name a call the agent must not make. It is left
 *   out, and the message says once that nothing is to be called (`readsResult` reads the result
 *   when the user asks).
 *
 * A confirm that re-asks an expired approval is the agent's to make on every host: kept as is.
 * What the gateway accepts does not change (a confirm after the approval answers the same result).
 */
export function approvalNextSteps<T extends AwaitingApproval>(
  outcome: T,
  host: { opensUrls: boolean; readsResult: string },
): T {
  const approval = outcome.approval as { status?: string } | null | undefined;
  const pending = approval?.status === "pending" || outcome.reason === "approval_pending";
  const next = outcome.next_actions ?? [];
  const carried = (n: { tool: string; requires_user_approval?: boolean }) =>
    n.tool === "confirm_action" && n.requires_user_approval === true;
  if (!pending || !next.some(carried)) return outcome;
  if (host.opensUrls)
    return {
      ...outcome,
      next_actions: next.map((n) =>
        carried(n)
          ? {
              ...n,
              description:
                "Opens the approval link for the user again; their approval carries it out and this call then returns the result",
            }
          : n,
      ),
    } as T;
  // Said in the message, not as a step: listed as the next call, a read of the result was made
  // after every approval by the model that played a plain host (issue 23, round 14: one more
  // call per approval); the person may take minutes, and the user asks when they want to know.
  const message = String(outcome.message ?? "");
  return {
    ...outcome,
    message: `${message}${message ? "; " : ""}${approvalCarries(host.readsResult)}`,
    next_actions: next.filter((n) => !carried(n)),
  } as T;
}
