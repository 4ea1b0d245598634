import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ConfirmationSummary } from "@/components/confirmation-summary";
import { agentSummaryLines } from "@/mcp/agent-summary";
import { nextArgsText } from "@/mcp/next-lines";
import { helpdeskSummary } from "@/server/connectors/helpdesk/helpdesk-summary-fields";
import { withShown } from "@/server/connectors/sdk/decision-summary";
import { renderSummary, summaryHtml, summaryText } from "@/server/connectors/sdk/render-decision-summary";
import { shopSummary } from "@/server/connectors/shop/shop-summary-fields";

// An assignment across teams as the helpdesk connector writes it (it needs a person's approval).
const assignment = withShown(
  {
    decision: { verb: "Assign", object: "ticket tkt_9 to Bella Billing" },
    ticket_id: "tkt_9",
    subject: "Wrong size tee",
    ticket_version: "2026-12-03T12:16:23.248Z",
    from_assignee: null,
    to_assignee: "tm_bella",
    to_assignee_name: "Bella Billing",
    cross_team: true,
  },
  helpdeskSummary("Assign the ticket"),
);

// A checkout of two lines as the shop connector writes it.
const checkout = withShown(
  {
    title: "Place the order and pay",
    decision: { verb: "Pay", amount: 6100, currency: "USD", from: "Store credit" },
    items: [
      { product_id: "prod_mug", name: "Signpost Mug", quantity: 2, unit_price: 1800, line_total: 3600 },
      { product_id: "prod_tee", name: "Logo Tee (M)", quantity: 1, unit_price: 2500, line_total: 2500 },
    ],
    amount: 6100,
    currency: "USD",
    address: "Office: 1 Market Street, 12345 Springfield, US",
    payment_method: { type: "balance", label: "Store credit" },
    now: { balance_before: 100_000, balance_after: 93_900 },
  },
  shopSummary("Place the order and pay", "Total to be charged"),
);

describe("the summary as the agent reads it (issue 23: fewer tokens, nothing the reader needs lost)", () => {
  it("leaves out a version stamp the agent cannot act on, which every person's surface still shows as it is sent", () => {
    const agent = agentSummaryLines(assignment).join("\n");
    expect(agent).not.toContain("2026-12-03T12:16:23.248Z");
    expect(agent).not.toContain("Ticket version");
    // What the person sees is exactly what is sent: the stamp is on the screen, the email (text
    // and HTML) and the rendered rows.
    const rows = renderSummary(assignment, "x").rows;
    expect(rows.find((r) => r.label === "Ticket version")?.text).toBe("2026-12-03T12:16:23.248Z");
    expect(summaryText(renderSummary(assignment, "x"))).toContain("Ticket version: 2026-12-03T12:16:23.248Z");
    expect(summaryHtml(renderSummary(assignment, "x"))).toContain("2026-12-03T12:16:23.248Z");
    const screen = renderToStaticMarkup(
      createElement(ConfirmationSummary, {
        capability: "assign_ticket",
        title: "Assign ticket",
        actionId: "act_1",
        version: 2,
        summary: assignment,
        status: "pending",
      }),
    );
    expect(screen).toContain("Ticket version");
    expect(screen).toContain("2026-12-03T12:16:23.248Z");
    // Every other row is in the agent's text, with its value.
    for (const said of [
      "Ticket: tkt_9",
      "Subject: Wrong size tee",
      "Assignee after: tm_bella",
      "Across teams: yes",
    ])
      expect(agent).toContain(said);
  });

  it("says each line item on one line with every value, the headline only where the sentence lacks it", () => {
    const lines = agentSummaryLines(checkout);
    expect(lines[0]).toBe("summary: Pay $61.00 from Store credit");
    expect(lines).toContain(
      "    - #1: Product: prod_mug · Item: Signpost Mug · Quantity: 2 · Unit price: $18.00 · Line total: $36.00",
    );
    expect(lines).toContain(
      "    - #2: Product: prod_tee · Item: Logo Tee (M) · Quantity: 1 · Unit price: $25.00 · Line total: $25.00",
    );
    // "$61.00" is in the sentence: "Total to be charged: $61.00" would say it again.
    expect(lines.join("\n")).not.toContain("Total to be charged");
    // The title adds words the sentence does not have; the context facts stay, marked as such.
    expect(lines).toContain("  Place the order and pay");
    expect(lines).toContain("  Now (for context, not approved):");
    expect(lines).toContain("  - Balance after: $939.00");
    // The person's email keeps one row a value.
    expect(summaryText(renderSummary(checkout, "x"))).toContain("Total to be charged: $61.00");
  });
});

describe("a next call's arguments in the text", () => {
  it("names the arguments the facts line already gives, and keeps every other one as JSON", () => {
    expect(nextArgsText({ action_id: "a1", version: 2 }, "a1", 2)).toBe(" {action_id, version}");
    // cancel_action takes no version: none is named.
    expect(nextArgsText({ action_id: "a1" }, "a1", 2)).toBe(" {action_id}");
    // Another action's id, or another version, is written out.
    expect(nextArgsText({ action_id: "a2", version: 2 }, "a1", 2)).toBe(' {"action_id":"a2","version":2}');
    expect(nextArgsText({ action_id: "a1", version: 1 }, "a1", 2)).toBe(' {"action_id":"a1","version":1}');
    expect(nextArgsText({ action_id: "a1", version: 2, patch: { body: "x" } }, "a1", 2)).toBe(
      ' {"action_id":"a1","version":2,"patch":{"body":"x"}}',
    );
    expect(nextArgsText({ capability: "track_shipment", entity_id: "ord_1" }, "a1", 2)).toBe(
      ' {"capability":"track_shipment","entity_id":"ord_1"}',
    );
    expect(nextArgsText(undefined, "a1", 2)).toBe("");
  });
});
