import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ConfirmDecision } from "@/components/confirm-decision";

/** What the confirm screen says about an approved action seen again, for one action status. */
function seenAgain(actionStatus: string, lastError: { code: string; message: string } | null = null) {
  const html = renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client: new QueryClient() },
      createElement(ConfirmDecision, {
        actionId: "act_1",
        version: 1,
        status: "approved",
        decidedVia: "console",
        decidedBy: "Alice (member)",
        decidedAt: "2026-01-01T10:00:00.000Z",
        expiresAt: "2026-01-02T10:00:00.000Z",
        canDecide: true,
        approvers: "Alice",
        reason: null,
        sentence: "Pay $41.00 from Store credit",
        audience: "member",
        onStale: () => {},
        actionStatus,
        lastError,
      }),
    ),
  );
  const said = /data-testid="agent-will-see">([^<]*)</.exec(html)?.[1];
  if (!said) throw new Error(`no agent-will-see in ${html}`);
  return said.replace(/&#x27;|&apos;/g, "'");
}

// Seen again after the approval's run, the screen says what was sent, as it is: in flight is not
// "nothing was sent", a cancelled action cannot still be carried out, a refusal was sent.
describe("the confirm screen on an approved action seen again", () => {
  it("executing: in flight, not 'nothing was sent'", () => {
    const said = seenAgain("executing");
    expect(said).toMatch(/being sent to the system now; the result is not known yet/);
    expect(said).not.toMatch(/nothing was sent/i);
  });

  it("cancelled: will not be carried out, not 'can still carry out'", () => {
    const said = seenAgain("cancelled");
    expect(said).toMatch(/cancelled after your approval, so it will not be carried out/);
    expect(said).not.toMatch(/can still carry out/);
  });

  it("approved again after the system refused it: sent and refused, with the system's reason", () => {
    const said = seenAgain("approved", {
      code: "insufficient_balance",
      message: "store credit is below the amount",
    });
    expect(said).toMatch(/^It was sent, and the system refused it: store credit is below the amount\./);
    expect(said).not.toMatch(/nothing was sent/i);
  });

  it("approved and never run: nothing was sent, the agent can still carry it out", () => {
    expect(seenAgain("approved")).toMatch(/nothing was sent.*can still carry out exactly this/);
  });

  it("failed: the system did not carry it out, with its reason", () => {
    expect(seenAgain("failed", { code: "temporarily_unavailable", message: "temporary failure" })).toMatch(
      /^The system did not carry it out: temporary failure\. Nothing was changed there/,
    );
  });

  it("unknown: sent, answer lost; completed: carried out once", () => {
    expect(seenAgain("unknown")).toMatch(/It was sent, but the system's answer was lost/);
    expect(seenAgain("completed")).toMatch(/Your approval carried out exactly this, once/);
  });
});
