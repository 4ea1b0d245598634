import { type InputRequiredResult, inputRequired, type ServerContext } from "@modelcontextprotocol/server";
import { navigate } from "@/server/browse/navigate";
import { type BrowsePage, rejectedPage } from "@/server/browse/render-page";
import type { BrowseBackend } from "@/server/connectors/sdk/browse-backend";
import { escapeText, link } from "@/server/connectors/sdk/markdown";
import { approvalPrompt } from "./approval-message";
import { clientCapabilities } from "./client-capabilities";
import { declinedInHost } from "./declined-in-host";
import { peekActionId, type SignpostRequestStateCodec } from "./request-state";

/** What a browse submit needs to keep a call open while a person approves (URL elicitation hosts). */
export interface BrowseApprovals {
  requestState: SignpostRequestStateCodec;
  /** The agent a round is bound to: the same id the action face binds its rounds to. */
  agentIdOf(ctx: ServerContext): string;
  /** Whether the caller's own person may decide the action (else the page says who decides). */
  mayApprove(ctx: ServerContext, actionId: string): Promise<boolean>;
  /** The person declined the approval in the host: withdrawn while it waits at that version. */
  decline?(
    ctx: ServerContext,
    actionId: string,
    version: number,
  ): Promise<{ outcome: string; message: string }>;
}

/**
 * A submit whose page leaves an action waiting on its person, answered to a host that opens URLs
 * for the person: the host shows them the approval screen and retries the same submit once they
 * decided (resumedSubmit), so the model's one submit brings the result, as start_action does on
 * the action face. Null for every other page or host: they get the page as it is.
 */
export async function approvalRequest(
  page: BrowsePage,
  ctx: ServerContext,
  approvals: BrowseApprovals,
): Promise<InputRequiredResult | null> {
  const waiting = page.awaitingApproval;
  if (!waiting || !clientCapabilities(ctx)?.elicitation?.url) return null;
  if (!(await approvals.mayApprove(ctx, waiting.actionId))) return null;
  return inputRequired({
    inputRequests: {
      approval: inputRequired.elicitUrl({
        message: approvalPrompt(waiting.summary, waiting.actionId, waiting.version),
        url: waiting.url,
      }),
    },
    requestState: await approvals.requestState.mint(
      {
        agent_id: approvals.agentIdOf(ctx),
        action_id: waiting.actionId,
        version: waiting.version,
        purpose: "approve",
      },
      ctx,
    ),
  });
}

/** An action page's outcome line (action-page.ts): `**applied:** …`. */
const OUTCOME_LINE = /^\*\*[a-z_]+:\*\* .*$/m;

/** An action id as the gateway makes them: anything else read from an unverified state is not linked. */
const ACTION_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The host's retry of a submit that waited on the person: nothing is submitted again. The person's
 * approval carried the change out (or they have not decided yet), so the answer is the action's
 * page; where they declined the screen in the host, the approval is withdrawn first (the action
 * cancelled, nothing moves) and the page says so. A state that is altered, expired, spent,
 * another agent's or minted for anything but an approval is a `rejected` page, audited as the
 * submit it came with.
 */
export async function resumedSubmit(
  backend: BrowseBackend,
  uri: string,
  rawState: string,
  ctx: ServerContext,
  approvals: BrowseApprovals,
): Promise<BrowsePage> {
  const peeked = peekActionId(rawState);
  const actionId = peeked && ACTION_ID.test(peeked) ? peeked : undefined;
  const current = actionId ? await backend.action(actionId) : null;
  const verified = await approvals.requestState.verify(rawState, ctx, {
    agent_id: approvals.agentIdOf(ctx),
    action_id: actionId ?? "",
    version: typeof current?.version === "number" ? current.version : undefined,
  });
  if (verified.ok && verified.state.purpose === "approve") {
    // Declined in the host: withdrawn (the action cancelled), said first on the action's page.
    const withdrawn =
      declinedInHost(ctx) && approvals.decline
        ? await approvals.decline(ctx, verified.state.action_id, verified.state.version)
        : null;
    const page = await navigate(backend, `actions://${actionId}`);
    if (!withdrawn) return page;
    // In place of the page's own outcome line ("cancelled at …"): one line, what the decline did.
    const line = `**${withdrawn.outcome}:** ${escapeText(withdrawn.message)}`;
    return {
      ...page,
      markdown: OUTCOME_LINE.test(page.markdown)
        ? page.markdown.replace(OUTCOME_LINE, () => line)
        : `${line}\n\n${page.markdown}`,
    };
  }
  const refusal = verified.ok
    ? { reason: "request_state_mismatch", message: "requestState was not minted for an approval." }
    : verified;
  return refusedStatePage(backend, uri, actionId, refusal);
}

async function refusedStatePage(
  backend: BrowseBackend,
  uri: string,
  actionId: string | undefined,
  refusal: { reason: string; message: string },
): Promise<BrowsePage> {
  return rejectedPage(backend, "submit", uri, {
    title: "Request state refused",
    message: refusal.message,
    markdown: [
      `**rejected:** ${escapeText(refusal.message)} Nothing was submitted again.`,
      `Reason: \`${refusal.reason}\` · Retryable: no`,
      [
        ...(actionId ? [`- ${link("Re-read the action", `actions://${actionId}`)}`] : []),
        `- ${link("Start", "signpost://start")}`,
      ].join("\n"),
    ].join("\n\n"),
  });
}
