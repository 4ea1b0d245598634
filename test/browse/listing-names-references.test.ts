import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { labelledValue, referenceLabels } from "@/server/connectors/sdk/reference-labels";
import { rowsTable } from "@/server/connectors/sdk/render-helpers";
import { row } from "../helpers/table-row";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

/**
 * Issue 23: the tickets listing showed `assignee_id tm_bella`, so "who is handling the refund
 * ticket?" cost the model a read of the ticket's page for the name. A connector declares how a
 * column of another record's ids is named (reference-labels.ts); listings, the action face's
 * offered rows and the record's page show "Bella Billing (`tm_bella`)": the name to answer with,
 * the id to send next. A name that says nothing more than its id (team "Billing", `billing`)
 * is not repeated. Real MCP client over HTTP, the gateway and the legacy service.
 */
describe("a column of another record's ids shows each by its name, the id beside it", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("the words naming a ticket answer who handles it, in the one search", async () => {
    const sam = await w.connect(w.keys.sam);
    const found = text(await sam.callTool({ name: "search", arguments: { query: "kettle refund ticket" } }));
    // The words fit one ticket: its page is the answer, and it names who handles it.
    expect(found).toContain("## [Ticket tkt_3](helpdesk://ticket/tkt_3) (opened here)");
    expect(found).toContain("Bella Billing");
    expect(found).not.toMatch(/assignee[^\n]*: `?tm_bella`?$/m);
    const listing = text(await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://tickets" } }));
    expect(row(listing, "tkt_2").assignee_id).toBe("Sid Shipping (`tm_sid`)");
    // An unassigned ticket stays empty; no name is made up.
    expect(row(listing, "tkt_1").assignee_id).toBe("—");
  });

  it("the teammates page, an action's offered tickets and the ticket's page name them the same way", async () => {
    const sam = await w.connect(w.keys.sam);
    const mates = text(await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://teammates" } }));
    // The team's name is its id's word: said once.
    expect(row(mates, "tm_bella").team_id).toBe("`billing`");

    const out = await sam.callTool({
      name: "start_action",
      arguments: { capability: "change_ticket_priority" },
    });
    const started = text(out);
    expect(started).toMatch(
      /^- `tkt_3` Kettle refund · .*assignee: Bella Billing \(tm_bella\) · team: billing · /m,
    );
    expect(started).toMatch(/^- `tkt_1` Charged twice\? · .*assignee: unassigned · /m);
    // The id to send next is the structured row's `value`.
    const offered = (sc(out).options as { tickets: Array<{ id: string; assignee: unknown }> }).tickets;
    expect(offered.find((t) => t.id === "tkt_3")?.assignee).toEqual({
      value: "tm_bella",
      label: "Bella Billing",
    });

    const page = text(
      await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/tkt_3" } }),
    );
    expect(page).toMatch(/^- \*\*assignee id:\*\* Bella Billing \(`tm_bella`\)$/m);
    // The view's assignee object said the same id and name again: not on the page.
    expect(page).not.toMatch(/\*\*assignee:\*\*/);
  });

  it("an order listing names the customer a staff member asks to see", async () => {
    const sam = await w.connect(w.keys.sam);
    const orders = text(
      await sam.callTool({ name: "navigate", arguments: { uri: "shop://orders?columns=customer_id" } }),
    );
    expect(row(orders, "ord_paid").customer_id).toMatch(/^Alice [A-Z]\w* \(`cus_alice`\)$/);
  });

  it("the SDK: a name is shown with its id, a lookup asked only for shown columns holding ids", async () => {
    const mates = new Map([
      ["tm_bella", "Bella Billing"],
      ["billing", "Billing"],
    ]);
    expect(labelledValue("tm_bella", mates)).toEqual({ value: "tm_bella", label: "Bella Billing" });
    expect(labelledValue("billing", mates)).toBe("billing");
    expect(labelledValue("tm_x", mates)).toBe("tm_x");
    const asked: string[] = [];
    const labels = await referenceLabels(
      [
        { id: "a", owner_id: "u_1", team_id: "t_1" },
        { id: "b", owner_id: null, team_id: "t_1" },
      ],
      ["id", "owner_id"],
      {
        owner_id: async (ids) => {
          asked.push(`owner:${ids.join(",")}`);
          return new Map([["u_1", "Ursula [Admin](x://y)"]]);
        },
        team_id: async () => {
          asked.push("team");
          return new Map();
        },
      },
    );
    // The hidden column's lookup is never asked.
    expect(asked).toEqual(["owner:u_1"]);
    // A name is data: escaped, never a link.
    const table = rowsTable([{ id: "a", owner_id: labelledValue("u_1", labels.owner_id) }]);
    expect(table).toContain("| Ursula \\[Admin\\]\\(x\\://y\\) (`u_1`) |");
    // A lookup that fails leaves the ids as they are.
    const failed = await referenceLabels([{ owner_id: "u_1" }], ["owner_id"], {
      owner_id: async () => {
        throw new Error("down");
      },
    });
    expect(failed).toEqual({});
  });

  it("what the names cost (o200k tokens of the text a model reads)", async () => {
    const sam = await w.connect(w.keys.sam);
    const listing = text(await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://tickets" } }));
    // Measured before → after: the nine tickets 464 → 478 (seven rows name their assignee, two
    // tokens each); the kettle search 277 → 294 (its one row also says what it is about: short
    // listings, short-listing-excerpt.test.ts); the ticket's page 432 → 410 (the assignee's name
    // on its id's line, its second mention gone); an action's nine offered tickets 566 → 594.
    // Set AZ: 478 → 517 with the line naming each row's forms (row-forms-line.ts), which spares
    // the record's page (~500 tokens) read only to learn where its form is; 527 since that line
    // says a form takes user_words alone (set BE: a model opened a row's page for the fields).
    expect(encode(listing).length).toBeLessThanOrEqual(530);
  });
});
