import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

/**
 * Issue 23: `search "ord_transit"` answered only a link to the order (and the catalog's
 * capabilities), so the model had to navigate next. A query that is one record id of a declared
 * kind answers with that record's page, opened as navigate opens it, and its actions.
 */
describe("search: a query that is one record id", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("carries the record's page and the actions that apply to it, audited as navigate", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const before = { seq: (await w.db.auditCounter.findUnique({ where: { tenantId: "acme" } }))?.seq ?? 0 };
    const res = await alice.callTool({ name: "search", arguments: { query: "ord_transit" } });
    const answer = text(res);
    expect(sc(res).outcome).toBe("applied");
    expect(answer).toContain("## [Order ord_transit](shop://order/ord_transit) (opened here)");
    expect(answer).toContain("- **status:** shipped");
    expect(answer).toContain("[track_shipment](shop://order/ord_transit/tracking)");
    // The catalog's matches for the id's words (checkout…) do not apply to this order.
    expect(answer).not.toContain("`checkout`");
    expect((sc(res) as unknown as { links: string[] }).links).toContain("shop://order/ord_transit/tracking");
    const rows = await w.db.auditEvent.findMany({
      where: { tenantId: "acme", seq: { gt: before.seq } },
      orderBy: { seq: "asc" },
    });
    expect(rows.map((r) => `${r.operation} ${r.target ?? ""}`)).toContain(
      "browse.navigated shop://order/ord_transit",
    );
    // Said with the kind's name or quoted, the same.
    const quoted = text(
      await alice.callTool({ name: "search", arguments: { query: "order `ord_transit`?" } }),
    );
    expect(quoted).toContain("(shop://order/ord_transit) (opened here)");
    // Another system's kind by its own prefix.
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    expect(text(await sam.callTool({ name: "search", arguments: { query: "tkt_2" } }))).toContain(
      "(helpdesk://ticket/tkt_2) (opened here)",
    );
  });

  it("another tenant's id, or none, is not found as navigate says, with no link to it", async () => {
    const gina = await w.connect(w.keys.gina, { faces: "browse" });
    const res = await gina.callTool({ name: "search", arguments: { query: "ord_transit" } });
    expect(sc(res).outcome).toBe("not_found");
    expect(text(res)).toContain("No order `ord_transit` exists for you.");
    expect(text(res)).not.toContain("shipped");
    expect((sc(res) as unknown as { links: string[] }).links).not.toContain("shop://order/ord_transit");
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    expect(sc(await alice.callTool({ name: "search", arguments: { query: "ord_nope" } })).outcome).toBe(
      "not_found",
    );
  });

  it("an id among other words stays a search for the words", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    expect(
      text(await alice.callTool({ name: "search", arguments: { query: "refund ord_transit" } })),
    ).not.toContain("(opened here)");
  });
});
