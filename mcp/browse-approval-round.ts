import { type InputRequiredResult, inputRequired, type ServerContext } from "@modelcontextprotocol/server";
import { navigate } from "@/server/browse/navigate";
import { type BrowsePage, recordRefusal, renderPage } from "@/server/browse/render-page";
import type { BrowseBackend } from "@/server/connectors/sdk/browse-backend";
import { escapeText, link } from "@/server/connectors/sdk/markdown";
import { approvalPrompt } from "./approval-message";
import { clientCapabilities } from "./client-capabilities";
import { peekActionId, type SignpostRequestStateCodec } from "./request-state";

/** What a browse submit needs to keep a call open while a person approves (URL elicitation hosts). */
export interface BrowseApprovals {
  requestState: SignpostRequestStateCodec;
  /** The agent a round is bound to: the same id the action face binds its rounds to. */
  agentIdOf(ctx: ServerContext): string;
  /** Whether the caller's own person may decide the action (else the page says who decides). */
  mayApprove(ctx: ServerContext, actionId: string): Promise<boolean>;
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

/** An action id as the gateway makes them: anything else read from an unverified state is not linked. */
const ACTION_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The host's retry of a submit that waited on the person: nothing is submitted again. The person's
 * approval carried the change out (or they declined, or have not decided yet), so the answer is
 * the action's page. A state that is altered, expired, spent, another agent's or minted for
 * anything but an approval is a `rejected` page, audited as the submit it came with.
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
  if (verified.ok && verified.state.purpose === "approve") return navigate(backend, `actions://${actionId}`);
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
  const shown = await recordRefusal(backend, "submit", uri, {
    outcome: "rejected",
    message: refusal.message,
  });
  const { page } = await renderPage(backend, shown, () => ({
    title: "Request state refused",
    outcome: "rejected",
    markdown: [
      `**rejected:** ${escapeText(refusal.message)} Nothing was submitted again.`,
      `Reason: \`${refusal.reason}\` · Retryable: no`,
      [
        ...(actionId ? [`- ${link("Re-read the action", `actions://${actionId}`)}`] : []),
        `- ${link("Start", "signpost://start")}`,
      ].join("\n"),
    ].join("\n\n"),
  }));
  return page;
}
