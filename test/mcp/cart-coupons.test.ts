import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Set AF (issue 23): "Do I have any coupons I could use right now?" searched "my coupons" and
 * found only the checkout form, whose choices list the coupons that apply; the model opened it as
 * a second call, and could not tell which other coupons exist or why they did not apply. The
 * coupons are a page of their own, each judged on the caller's cart, and the cart says what each
 * coupon that does not apply still needs. Real MCP client over HTTP, the gateway and the legacy
 * service.
 */
describe("the coupons a caller could use, in one search", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const rows = (t: string) =>
    [...t.matchAll(/^\| (\w+) \| [^|]+ \| \$[\d.,]+ \| ([^|]+) \|$/gm)].map((m) => [m[1], m[2]?.trim()]);

  it("'my coupons' opens every coupon, judged on the cart, with what each one that does not apply needs", async () => {
    const alice = await w.connect(w.keys.alice);
    for (const query of ["my coupons", "coupons"]) {
      const t = text(await alice.callTool({ name: "search", arguments: { query } }));
      expect(t, query).toMatch(/^## \[Coupons\]\(shop:\/\/coupons\) \(opened here\)$/m);
      expect(t, query).toContain("Judged on your cart now (subtotal $61.00): those that apply first.");
      expect(rows(t)).toEqual([
        ["SAVE5", "yes"],
        ["SAVE30", "no: needs $239.00 more"],
        ["BIG100", "no: needs $939.00 more"],
      ]);
    }
    // Words naming the cart open the cart, which says the same in its lines.
    const cart = text(await alice.callTool({ name: "search", arguments: { query: "coupons for my cart" } }));
    expect(cart).toMatch(/^## \[Cart\]\(shop:\/\/cart\) \(opened here\)$/m);
    expect(cart).toContain("Not yet: SAVE30 (needs $239.00 more), BIG100 (needs $939.00 more).");
  });

  it("a cart no coupon applies to says what each needs; an empty one, that none applies", async () => {
    const legacy = (path: string, method: string, body?: unknown) =>
      fetch(`${w.legacy.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${w.legacy.apiKeys.acme}`,
          "content-type": "application/json",
          "idempotency-key": `k-${path}-${method}`,
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    // One mug ($18.00) is under every coupon's minimum.
    expect((await legacy("/v1/customers/cus_alice/cart/items/prod_tee", "DELETE")).status).toBeLessThan(300);
    const mug = { product_id: "prod_mug", quantity: 1 };
    expect((await legacy("/v1/customers/cus_alice/cart/items", "POST", mug)).status).toBeLessThan(300);
    const alice = await w.connect(w.keys.alice);
    const cart = text(await alice.callTool({ name: "navigate", arguments: { uri: "shop://cart" } }));
    expect(cart).toContain(
      "No coupon applies to this cart. Not yet: SAVE5 (needs $2.00 more), SAVE30 (needs $282.00 more), BIG100 (needs $982.00 more).",
    );
    expect((await legacy("/v1/customers/cus_alice/cart/items/prod_mug", "DELETE")).status).toBeLessThan(300);
    const empty = text(await alice.callTool({ name: "navigate", arguments: { uri: "shop://coupons" } }));
    expect(empty).toContain("Your cart is empty, so none applies now");
    expect(rows(empty).map((r) => r[1])).toEqual([
      "no: needs $20.00 more",
      "no: needs $300.00 more",
      "no: needs $1,000.00 more",
    ]);
  });

  it("the approval of a checkout without a coupon says the best one that applies, before the person decides", async () => {
    // Set AT: $338 was approved with SAVE30 unsaid (the agent was to offer it in its reply).
    const alice = await w.connect(w.keys.alice);
    const intent = "Buy my cart, standard to my office, pay by card";
    const without = text(await alice.callTool({ name: "start_action", arguments: { intent } }));
    expect(without).toContain(
      "Coupon not used: SAVE5 would take $5.00 off; not applied: the user did not ask for it",
    );
    const withIt = text(
      await alice.callTool({ name: "start_action", arguments: { intent: `${intent}, with SAVE5` } }),
    );
    expect(withIt).toContain("− coupon SAVE5 $5.00");
    expect(withIt).not.toContain("Coupon not used");
    // Nor where the user said no coupon (review 55c: "not applied: the user did not ask for it").
    const declined = text(
      await alice.callTool({ name: "start_action", arguments: { intent: `${intent}, no coupon please` } }),
    );
    expect(declined).not.toContain("Coupon not used");
    expect(declined).toContain("coupon_code = none (the user said none)");
  });

  it("a word only a table below the cart's items holds cuts no table (set AU)", async () => {
    // "…with express?" matched a shipping row: "Shown: the 1 of the 6 rows whose cells hold
    // `express`" emptied the cart's items and its coupons.
    const alice = await w.connect(w.keys.alice);
    const page = text(
      await alice.callTool({
        name: "search",
        arguments: { query: "What would shipping my cart to the office cost with express?" },
      }),
    );
    expect(page).toContain("## [Cart](shop://cart) (opened here)");
    expect(page).not.toContain("rows whose cells hold");
    expect(page).toContain("| [prod_mug](shop://product/prod_mug) | Signpost Mug |");
    expect(page).toMatch(/^\| SAVE5 \|/m);
  });

  it("judged on the caller's own cart, never another's", async () => {
    const sam = await w.connect(w.keys.sam);
    const t = text(await sam.callTool({ name: "navigate", arguments: { uri: "shop://coupons" } }));
    expect(t).toContain("Your cart is empty, so none applies now");
    expect(t).not.toContain("$61.00");
  });
});
