import { describe, expect, it } from "vitest";
import { helpdeskSummary } from "@/server/connectors/helpdesk/helpdesk-summary-fields";
import { shownSummary, withShown } from "@/server/connectors/sdk/decision-summary";

const labels = (facts: Record<string, unknown>, fields = {}) =>
  Object.fromEntries(
    (shownSummary(withShown(facts, { title: "Change", fields }))?.entries ?? []).map((e) => [e.key, e.label]),
  );

/**
 * A value before a change and the value after it say which is which in every summary, whatever a
 * connector labels them: round 5's model read "Assigned now: none · Assignee name: Sara Shipping"
 * after assigning a ticket as a failure ("now" meant before the change).
 */
describe("decision summaries: values before and after a change", () => {
  it("a from_/to_ pair reads '<X> before' and '<X> after', by the after key's own label", () => {
    expect(labels({ from_owner: null, to_owner: "u_2" })).toEqual({
      from_owner: "Owner before",
      to_owner: "Owner after",
    });
    expect(
      labels(
        { from_stage: "lead", to_stage: "won" },
        { from_stage: { label: "Stage now" }, to_stage: { label: "New stage" } },
      ),
    ).toEqual({ from_stage: "Stage before", to_stage: "Stage after" });
    expect(labels({ quota_before: 3, quota_after: 5 })).toEqual({
      quota_before: "Quota before",
      quota_after: "Quota after",
    });
    // A lone from_ or to_ key is no change pair: its label stays.
    expect(labels({ from: "Office", to_team: "shipping" }, { to_team: { label: "Team" } })).toEqual({
      from: "from",
      to_team: "Team",
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
