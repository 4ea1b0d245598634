import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { approve } from "../gateway/gateway-world";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set CR: "Take everything out of my cart" was one update_cart per line: three calls and two
 * approvals, each stopping to ask which product though the user had said "everything". The whole
 * cart goes in one action the user approves, its screen listing every line. Real MCP client over
 * HTTP, gateway and legacy shop (Alice's cart: 2 mugs, 1 tee).
 */
describe("emptying the cart in one approval", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const cart = async () => {
    const res = await fetch(`${w.legacy.url}/v1/customers/cus_alice/cart`, {
      headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
    });
    return ((await res.json()) as { items: Array<{ product_id: string }> }).items.map((i) => i.product_id);
  };

  it("'Empty my cart' waits for the user with every line, then takes them all out", async () => {
    const alice = await w.connect(w.keys.alice);
    const res = await alice.callTool({ name: "start_action", arguments: { intent: "Empty my cart" } });
    const out = sc(res);
    expect(out, text(res)).toMatchObject({ capability: "empty_cart", status: "awaiting_approval" });
    expect(text(res)).toContain("Signpost Mug");
    expect(text(res)).toContain("Logo Tee (M)");
    expect(await cart()).toHaveLength(2);
    const decided = await approve(w, String(out.action_id));
    expect(decided.result?.outcome, JSON.stringify(decided)).toBe("applied");
    expect(await cart()).toEqual([]);
    // Nothing left to take out: refused, and nothing is left open (review 66b: it asked a fix).
    const again = sc(await alice.callTool({ name: "start_action", arguments: { intent: "Clear my cart" } }));
    expect(again.message).toMatch(/already empty/);
    expect(again).toMatchObject({ outcome: "rejected", status: "refused" });
  });

  // Review 66b: two lines out and one left was said "changed nothing", and verify said no such
  // effect. Review 66c: left to recovery, its re-send took out a line added since. Half done is
  // said as it stands; a retry is confirm's, which finds the cart changed and asks again.
  it("a cart half emptied says what it holds; a retry asks the user again", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = sc(await alice.callTool({ name: "start_action", arguments: { intent: "Empty my cart" } }));
    await w.legacy.injectFault({
      match: "DELETE /v1/customers/cus_alice/cart/items/prod_tee",
      mode: "noop_success",
      count: 1,
    });
    const decided = await approve(w, String(out.action_id));
    expect(decided.result, JSON.stringify(decided)).toMatchObject({
      outcome: "rejected",
      reason: "not_applied",
    });
    expect(JSON.stringify(decided)).toContain(
      "1 of 2 lines were taken out; the cart still holds Logo Tee (M)",
    );
    expect(JSON.stringify(decided)).not.toContain("changed nothing");
    expect(await cart()).toEqual(["prod_tee"]);
    const verified = text(
      await alice.callTool({ name: "verify_action", arguments: { action_id: String(out.action_id) } }),
    );
    expect(verified).not.toContain("no such effect");
    // Another line added since: the retry checks the cart first, never takes it out unapproved.
    await fetch(`${w.legacy.url}/v1/customers/cus_alice/cart/items`, {
      method: "POST",
      headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}`, "content-type": "application/json" },
      body: JSON.stringify({ product_id: "prod_mug", quantity: 5 }),
    });
    await alice.callTool({
      name: "confirm_action",
      arguments: { action_id: String(out.action_id), idempotency_key: "retry-empty-cart-1" },
    });
    expect((await cart()).sort()).toEqual(["prod_mug", "prod_tee"]);
  });

  it("one line's removal stays update_cart; 'everything' offers the whole cart", async () => {
    const alice = await w.connect(w.keys.alice);
    const one = sc(
      await alice.callTool({ name: "start_action", arguments: { intent: "Take the tee out of my cart" } }),
    );
    expect(one.capability).toBe("update_cart");
    const all = text(
      await alice.callTool({
        name: "start_action",
        arguments: { intent: "Take everything out of my cart.", dry_run: true },
      }),
    );
    // A tie with a line's removal: both offered, neither started.
    expect(all).toContain("empty_cart");
    expect(all).toContain("update_cart");
    // "Everything" alone names no cart (review 66b: a refund of everything tied with emptying it).
    const refund = text(
      await alice.callTool({
        name: "search_capabilities",
        arguments: { query: "I want a refund for everything" },
      }),
    );
    expect(refund).not.toContain("empty_cart");
  });
});
