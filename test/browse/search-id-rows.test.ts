import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

/**
 * Issue 23: Sam asked "Which tickets are about order ord_paid?" and spent three calls: the search
 * opened the orders (the id's own kind), a search of the tickets' text found no ticket, and only
 * `?columns=order_id` showed it. An id quoted beside another listing's noun answers with that
 * listing's rows whose own fields hold exactly that id, in one call.
 */
describe("search: a record id beside another listing's noun", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("answers with the listing's rows holding the id, the column shown, in one call", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const res = await sam.callTool({
      name: "search",
      arguments: { query: "Which tickets are about order ord_paid?" },
    });
    const answer = text(res);
    expect(sc(res).outcome).toBe("applied");
    expect(answer).toContain("## [Tickets](helpdesk://tickets?columns=order_id) (opened here)");
    expect(answer).toContain("Rows whose `order_id` is `ord_paid` (all 9 rows read).");
    expect(answer).toMatch(/^\| `tkt_1` \|.*\[ord_paid\]\(shop:\/\/order\/ord_paid\) \|$/m);
    // No other ticket, and not the order's own listing.
    expect(answer.match(/tkt_\d+/g)).toEqual(["tkt_1"]);
    expect(answer).not.toContain("shop://orders");
    expect(answer).toContain("1 shown, 8 left out");
  });

  // Set BD: "tickets order_id ord_paid" named the field as the listing's column is named, and
  // was searched as ticket text ("`order`, `id`, `ord`, `paid` matched no subjects"), every row shown.
  it.each(["tickets order_id ord_paid", "tickets with order_id ord_paid"])(
    "the id's field named as its column names it: %s",
    async (query) => {
      const sam = await w.connect(w.keys.sam, { faces: "browse" });
      const answer = text(await sam.callTool({ name: "search", arguments: { query } }));
      expect(answer).toContain("Rows whose `order_id` is `ord_paid`");
      expect(answer.match(/tkt_\d+/g)).toEqual(["tkt_1"]);
    },
  );

  it("keeps the filters the other words name, and says when no row holds the id", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const open = text(
      await sam.callTool({ name: "search", arguments: { query: "pending tickets about ord_pending" } }),
    );
    expect(open).toContain("Rows whose `order_id` is `ord_pending` (all 2 rows read).");
    expect(open).toMatch(/^Filtered: status = pending/m);
    expect(open.match(/tkt_\d+/g)).toEqual(["tkt_4"]);
    const none = text(await sam.callTool({ name: "search", arguments: { query: "tickets about ord_nope" } }));
    expect(none).toContain("No row holds `ord_nope` in any of its fields (all 9 rows read).");
  });

  it("the id alone, or with its own kind's noun, still opens the record", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    for (const query of ["ord_paid", "order ord_paid"])
      expect(text(await sam.callTool({ name: "search", arguments: { query } }))).toContain(
        "## [Order ord_paid](shop://order/ord_paid) (opened here)",
      );
  });
});
