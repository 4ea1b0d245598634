import { describe, expect, it } from "vitest";
import { helpdeskSummary } from "@/server/connectors/helpdesk/helpdesk-summary-fields";
import { shownSummary, withShown } from "@/server/connectors/sdk/decision-summary";

const labels = (facts: Record<string, unknown>, fields = {}) =>
  Object.fromEntries(
    (shownSummary(withShown(facts, { title: "Change", fields }))?.entries ?? []).map((e) => [e.key, e.label]),
  );

/**
 * A value before a change and the value after it say which is which: round 5's model read
 * "Assigned now: none · Assignee name: Sara Shipping" after assigning a ticket as a failure. The
 * connector declares those labels; the SDK never relabels by key names, where a transfer's
 * from_account/to_account are "Pay from"/"Pay to", not a before and an after.
 */
describe("decision summaries: values before and after a change", () => {
  it("declared labels are shown as declared, whatever the keys are called", () => {
    expect(
      labels(
        { amount: 500, from_account: "acct_savings", to_account: "acct_ext_9913" },
        { from_account: { label: "Pay from" }, to_account: { label: "Pay to" } },
      ),
    ).toEqual({ amount: "amount", from_account: "Pay from", to_account: "Pay to" });
    expect(labels({ from_date: "2026-01-01", to_date: "2026-02-01" })).toEqual({
      from_date: "from_date",
      to_date: "to_date",
    });
  });

  it("the helpdesk's assignment says whom the ticket had before and whom it has after", () => {
    const shown = shownSummary(
      withShown(
        {
          ticket_id: "tkt_9",
          from_assignee: null,
          to_assignee: "tm_sara",
          to_assignee_name: "Sara Shipping",
        },
        helpdeskSummary("Assign the ticket"),
      ),
    );
    expect(shown?.entries.map((e) => e.label)).toEqual([
      "Ticket",
      "Assignee before",
      "Assignee after",
      "New assignee's name",
    ]);
  });
});
