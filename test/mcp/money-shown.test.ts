import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SHOP_MONEY } from "@/server/connectors/shop/shop-policy";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Every money amount an agent reads is formatted ("$12.00"): no integer under one of the shop's
 * declared money keys shows bare, in an action answer (options, results, nested totals) or on a
 * browse page. Round 3's models read "shipping 1200" and "options.max_refund: 6100" beside
 * "subtotal $249.00", and "shipping: 500" on the order page.
 */
const BARE = new RegExp(
  `(?<![A-Za-z_])(${SHOP_MONEY.keys.map((k) => k.replace(/_/g, "[_ ]")).join("|")})\\**:?\\**[ \\t]+\\d+(?![\\d.])`,
  "gi",
);

function bareMoney(answer: string): string[] {
  return [...answer.matchAll(BARE)].map((m) => m[0]);
}

describe("money is shown formatted on every face (shop flows)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("the check itself catches a bare amount", () => {
    expect(bareMoney("totals: subtotal $249.00, shipping 1200, discount $0.00")).toEqual(["shipping 1200"]);
    expect(bareMoney("options.max_refund: 6100")).toEqual(["max_refund: 6100"]);
    expect(bareMoney("- **totals:** subtotal: $43.00 · shipping: 500")).toEqual(["shipping: 500"]);
    expect(bareMoney("shipping_method: standard · max refund: $61.00")).toEqual([]);
  });

  it("checkout, after_sales, pay_order, change_delivery_address, the order's context and its browse page", async () => {
    const client = await w.connect(w.keys.alice);
    const answers: Array<[string, string]> = [];
    const call = async (name: string, args: Record<string, unknown>) => {
      const res = await client.callTool({ name, arguments: args });
      answers.push([`${name} ${JSON.stringify(args)}`, text(res)]);
      return text(res);
    };
    await call("start_action", {
      capability: "checkout",
      patch: {
        items: [{ product_id: "prod_mug", quantity: 2 }],
        address_id: "Office",
        payment_type: "balance",
      },
    });
    await call("start_action", {
      capability: "checkout",
      patch: { items: [{ product_id: "prod_mug", quantity: 2 }] },
    });
    for (const order of ["ord_paid", "ord_shipdiff", "ord_delivered"]) {
      await call("start_action", { capability: "after_sales", entity_id: order });
      await call("start_action", {
        capability: "after_sales",
        entity_id: order,
        patch: { kind: "refund_only" },
      });
    }
    await call("start_action", {
      capability: "after_sales",
      entity_id: "ord_shipdiff",
      patch: { kind: "shipping_refund" },
    });
    await call("start_action", { capability: "pay_order", entity_id: "ord_pending" });
    await call("start_action", { capability: "change_delivery_address", entity_id: "ord_paid" });
    for (const order of ["ord_paid", "ord_pending", "ord_shipdiff"]) {
      await call("get_context", { entity: "order", entity_id: order });
      await call("navigate", { uri: `shop://order/${order}` });
    }
    // The answers did show money (the walk is not vacuous) …
    expect(answers.map(([, t]) => t).join("\n")).toMatch(/\$\d+\.\d\d/);
    // (an order's totals read as one sum: "items $43.00 + shipping $5.00 = $48.00")
    expect(answers.some(([, t]) => /shipping:? \$\d/.test(t))).toBe(true);
    expect(answers.some(([, t]) => /max_refund: \$\d/.test(t))).toBe(true);
    // The checkout without a shipping method asks for it, each method priced as money.
    expect(answers[0]?.[1]).toMatch(/^- shipping_method — .*`standard` \$\d+\.\d\d.*`express` \$\d+\.\d\d/m);
    // … and never bare.
    const bare = answers.flatMap(([what, t]) => bareMoney(t).map((b) => `${what}: ${b}`));
    expect(bare).toEqual([]);
  });
});
