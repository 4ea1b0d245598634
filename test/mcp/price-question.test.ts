import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Issue 23, played: "What's the cheapest way to ship my cart to my office, and what would it cost
 * in total?" The checkout by words took the cheapest cart line (one mug) for "cheapest", listed
 * each shipping method's price alone, and, once a method was named, asked for payment_type with
 * no total: the model advanced again only to read the price. A price question is answered
 * before anything is paid: each method with the order's total, and at the payment step (whose
 * choice changes no price) the sum as it stands.
 */
describe("a price question is answered before anything is paid (MCP over HTTP, real legacy)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const checkout = async (intent: string, patch?: Json) =>
    (await w.connect(w.keys.alice)).callTool({
      name: "start_action",
      arguments: { capability: "checkout", intent, ...(patch ? { patch } : {}) },
    });

  it("'the cheapest way to ship my cart' is the cart at the cheapest method, with the order's total", async () => {
    const out = await checkout(
      "What's the cheapest way to ship my cart to my office, and what would it cost in total?",
    );
    const s = sc(out);
    // "Cheapest" asks about the way to ship, not which of the cart's lines to buy: the cheapest
    // method is taken, said so, and the total as it stands answers "what would it cost".
    expect(s.from_words).toMatchObject({
      // Each line by its name where the words did not say it (set AB: "a Hoodie" was a size M).
      items: "2 × prod_mug (Signpost Mug), 1 × prod_tee (Logo Tee (M))",
      address_id: "addr_alice_office",
      shipping_method: "standard",
    });
    expect(s.missing).toEqual(["payment_type"]);
    expect((s.options as Json).to_pay).toEqual({ subtotal: 6100, shipping: 500, total: 6600 });
    expect(text(out)).toContain("shipping_method = standard (the cheapest of 3 available)");
    expect(text(out)).toContain("options.to_pay: subtotal $61.00, shipping $5.00, total $66.00");
    // Asked without a price end, each method is said with the order's total.
    const each = sc(await checkout("How much would it cost to ship my cart to my office?"));
    expect(each.missing).toEqual(["shipping_method"]);
    const methods = (each.options as { shipping_methods: Json[] }).shipping_methods;
    expect(methods.map((m) => [m.method, m.price, m.total])).toEqual([
      ["standard", 500, 6600],
      ["express", 1200, 7300],
      ["same_day", 1500, 7600],
    ]);
    console.info(`price question, first answer: ${encode(text(out)).length} tokens`);
  });

  it("stopped for the payment method (no price changes with it), the answer says what is paid", async () => {
    const out = await checkout("Ship my cart to my office with standard shipping");
    const s = sc(out);
    expect(s).toMatchObject({ node: "PAYMENT", missing: ["payment_type"] });
    expect((s.options as Json).to_pay).toEqual({ subtotal: 6100, shipping: 500, total: 6600 });
    expect(text(out)).toContain("options.to_pay: subtotal $61.00, shipping $5.00, total $66.00");
    console.info(`price question, payment step: ${encode(text(out)).length} tokens`);
    // A coupon given is taken off each method's total and the sum alike.
    const coupon = sc(await checkout("Ship my cart to my office", { coupon_code: "SAVE5" }));
    const methods = (coupon.options as { shipping_methods: Json[] }).shipping_methods;
    expect(methods.map((m) => m.total)).toEqual([6100, 6800, 7100]);
    const paying = sc(await checkout("Ship my cart to my office, express", { coupon_code: "SAVE5" }));
    expect((paying.options as Json).to_pay).toEqual({
      subtotal: 6100,
      shipping: 1200,
      discount: 500,
      total: 6800,
    });
  });

  it("the checkout form's page says the same, every amount as money", async () => {
    const page = text(
      await (await w.connect(w.keys.alice)).callTool({
        name: "submit",
        arguments: {
          uri: "shop://checkout",
          fields: {
            items: [{ product_id: "prod_mug", quantity: 2 }],
            address_id: "Office",
            shipping_method: "standard",
          },
        },
      }),
    );
    expect(page).toContain(
      "### to pay\n\n- **subtotal:** $36.00\n- **shipping:** $5.00\n- **total:** $41.00",
    );
  });
});
