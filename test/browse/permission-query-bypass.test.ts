import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachProvider } from "../helpers/database";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

/**
 * An exact deny rule names a page; a query (`?page=1`, `?x=1`) is the same page. Found by an
 * outside attack: each spelling with a query slipped past the rule, for navigate and for submit.
 */
describeEachProvider("an exact deny holds whatever query is added (%s)", (provider) => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld(provider);
  });
  afterAll(async () => w?.close());

  async function deny(who: "alice" | "sam", verb: string, pattern: string) {
    await w.db.permissionRule.create({
      data: {
        tenantId: "acme",
        subjectType: "agent",
        subjectId: w.agent[who].agentId ?? null,
        verb,
        pattern,
        decision: "deny",
        position: -50,
      },
    });
  }

  it("navigate: every spelling of a denied page is denied", async () => {
    await deny("alice", "navigate", "shop://orders");
    await deny("alice", "navigate", "shop://product/prod_mug");
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    for (const uri of [
      "shop://orders",
      "shop://orders?page=1",
      "shop://orders?per_page=10",
      "shop://orders/",
      "shop://product/prod_mug?x=1",
    ]) {
      const result = await alice.callTool({ name: "navigate", arguments: { uri } });
      expect([uri, sc(result).outcome, sc(result).title]).toEqual([uri, "rejected", "Permission required"]);
      expect(text(result), uri).toContain("is denied by a rule");
    }
    // Pages the rules do not name stay open.
    const other = await alice.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_paid" } });
    expect(sc(other).outcome).toBe("applied");
  });

  it("submit: a denied form stays denied with a query, and nothing is started", async () => {
    await deny("sam", "submit", "helpdesk://ticket/tkt_2/priority");
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const before = await w.db.action.count();
    for (const uri of ["helpdesk://ticket/tkt_2/priority", "helpdesk://ticket/tkt_2/priority?x=1"]) {
      const result = await sam.callTool({
        name: "submit",
        arguments: { uri, fields: { priority: "urgent" } },
      });
      expect([uri, sc(result).outcome, sc(result).title]).toEqual([uri, "rejected", "Permission required"]);
      expect(text(result), uri).toContain("is denied by a rule");
    }
    expect(await w.db.action.count()).toBe(before);
  });
});
