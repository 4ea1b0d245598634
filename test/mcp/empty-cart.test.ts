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
    // Nothing left to take out: said, nothing started.
    const again = sc(await alice.callTool({ name: "start_action", arguments: { intent: "Clear my cart" } }));
    expect(again.message).toMatch(/already empty/);
    expect(again.status).not.toBe("awaiting_approval");
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
    expect(all).toContain("empty_cart");
  });
});
