import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withAgentRule } from "../helpers/agent-rule";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Set BL: "my lamp order tracking" listed the caller's first five orders by status, none saying
 * what it held, and the model opened the whole orders listing to find the lamp (two calls more).
 * A search's orders are the ones holding what its words name, each with its items. Real MCP
 * client over HTTP, gateway and legacy shop.
 */
describe("a search's orders are the ones holding what the words name", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const search = async (query: string) => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    return text(await alice.callTool({ name: "search", arguments: { query } }));
  };

  it("'my lamp order tracking' finds the lamp order alone, saying what it holds", async () => {
    const out = await search("my lamp order tracking");
    expect(out).toContain(
      "[Order ord_paid \\(paid\\)](shop://order/ord_paid) — Desk Lamp ×1, Signpost Mug ×1",
    );
    expect(out).not.toMatch(/\[Order ord_(pending|transit|exchange|shipdiff)/);
  });

  it("'my lamp' finds the product and the caller's order holding it; words naming no item keep every order", async () => {
    const lamp = await search("my lamp");
    expect(lamp).toContain("[Product Desk Lamp](shop://product/prod_lamp)");
    expect(lamp).toContain("(shop://order/ord_paid) — Desk Lamp ×1");
    // Set BO: the words searched one by one ("found by `headphone`") find the order too.
    expect(await search("when will my headphones arrive")).toContain(
      "(shop://order/ord_transit) — Wireless Headphones ×1",
    );
    const tracking = await search("order tracking");
    expect(tracking.match(/\[Order ord_/g)?.length).toBeGreaterThan(1);
  });

  // Review 60c: support's "my" is no customer's; a rule refusing the orders listing holds here too.
  it("support's 'my lamp' lists no customer's order; a denied orders listing lists none", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    expect(text(await sam.callTool({ name: "search", arguments: { query: "my lamp" } }))).not.toContain(
      "ord_paid",
    );
    const rule = {
      agentId: w.agent.alice.agentId ?? null,
      verb: "navigate",
      pattern: "shop://orders",
      decision: "deny",
    } as const;
    await withAgentRule(w.db, rule, async () => {
      expect(await search("my lamp")).not.toContain("ord_paid");
    });
  });

  it("another tenant's orders never show", async () => {
    const gina = await w.connect(w.keys.gina, { faces: "browse" });
    const out = text(await gina.callTool({ name: "search", arguments: { query: "my lamp order" } }));
    expect(out).not.toMatch(/ord_paid|ord_pending|ord_transit/);
  });
});
