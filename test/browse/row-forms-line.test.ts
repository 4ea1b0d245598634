import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withAgentRule } from "../helpers/agent-rule";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Set AZ (played): "Cancel my unpaid order", the orders already listed, opened the order's page
 * (535 tokens) only to learn where its cancel form was; the wrapper's cancelOrder took one call.
 * A listing names its rows' forms once under the row address, those the caller may submit.
 */
describe("a listing names the forms each row opens (browse over MCP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("the orders listing names them under the row address; a search's other pages do not repeat them", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const listing = text(await alice.callTool({ name: "navigate", arguments: { uri: "shop://orders" } }));
    expect(listing).toMatch(
      /^Each row's page: `shop:\/\/order\/\{id\}`\nEach row's forms: `shop:\/\/order\/\{id\}\/…` [a-z-]+(, [a-z-]+)* \(submit one with just user_words, the user's request: it fills the fields\)$/m,
    );
    const forms = /^Each row's forms: `[^`]+` ([^(]+)/m
      .exec(listing)?.[1]
      ?.split(", ")
      .map((f) => f.trim());
    expect(forms).toEqual(expect.arrayContaining(["after-sales", "address", "pay", "cancel"]));
    const found = text(await alice.callTool({ name: "search", arguments: { query: "my orders" } }));
    expect(found).toContain("Each row's forms:");
    expect(found).not.toMatch(/^- `shop:\/\/order\/\{id\}\/(after-sales|address|cancel|pay)`/m);
    // The form named is where a submit of the user's words lands, in one call.
    const cancelled = text(
      await alice.callTool({
        name: "submit",
        arguments: {
          uri: "shop://order/ord_pending/cancel",
          fields: { user_words: "Cancel my unpaid order" },
        },
      }),
    );
    expect(cancelled).toMatch(/cancelled|canceled/i);
    await w.legacy.reset();
  });

  it("a form the caller may not submit is not named", async () => {
    const agent = await w.db.agent.findFirstOrThrow({
      where: { tenantId: "acme", user: { email: "alice@acme.test" } },
    });
    const rule = {
      agentId: agent.id,
      verb: "submit",
      pattern: "shop://order/*/cancel",
      decision: "deny",
    } as const;
    await withAgentRule(w.db, rule, async () => {
      const alice = await w.connect(w.keys.alice, { faces: "browse" });
      const listing = text(await alice.callTool({ name: "navigate", arguments: { uri: "shop://orders" } }));
      const forms = /^Each row's forms: `[^`]+` ([^(]+)/m
        .exec(listing)?.[1]
        ?.split(", ")
        .map((f) => f.trim());
      expect(forms).toContain("pay");
      expect(forms).not.toContain("cancel");
    });
  });

  it("a form whose capability the caller may not start is not named (review 57b)", async () => {
    // Alice, a customer (role member), may read the helpdesk listing of her tickets but start
    // none of its changes: each form was named and then refused.
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const listing = text(
      await alice.callTool({ name: "navigate", arguments: { uri: "helpdesk://tickets" } }),
    );
    expect(listing).toContain("Each row's page: `helpdesk://ticket/{id}`");
    expect(listing).not.toMatch(/Each row's forms: `helpdesk:[^\n]*\b(assign|priority|status|team)\b/);
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const his = text(await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://tickets" } }));
    expect(his).toMatch(/Each row's forms: `helpdesk:\/\/ticket\/\{id\}\/…` .*\bassign\b/);
  });
});
