import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set H, task 2 (issue 23): "Buy one mug, express to my office, pay with my card. Nothing else
 * from the cart." started a checkout of the mug AND the cart's tee ($55, where the user asked for
 * $30), and answered `also asked: "express to my office" → change_delivery_address`. What the
 * user excludes is never taken, and a clause whose words all set the started action's fields is
 * its detail, not another ask. Real MCP client, gateway and legacy shop.
 */
describe("a request's own details and exclusions (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("'nothing else from the cart' takes only what was named; 'express to my office' is the checkout's own", async () => {
    const alice = await w.connect(w.keys.alice);
    const res = await alice.callTool({
      name: "start_action",
      arguments: {
        intent: "Buy one mug, express to my office, pay with my card. Nothing else from the cart.",
      },
    });
    const out = sc(res);
    expect(out.capability).toBe("checkout");
    // Only the mug: the cart's tee was excluded by the words.
    expect(out.from_words).toMatchObject({
      items: "1 × prod_mug (Signpost Mug)",
      shipping_method: "express",
    });
    expect(out.also_asked).toBeUndefined();
    expect(text(res)).not.toContain("change_delivery_address");
    // A real second ask in the same words is still said.
    const two = await alice.callTool({
      name: "start_action",
      arguments: {
        intent:
          "Buy one mug, express to my office, pay with my card, and change the address of my kettle order to home.",
      },
    });
    expect(text(two)).toContain("change_delivery_address");
    // Set CP: a word naming the field its clause sets ("delivery" of the delivery address) is
    // the checkout's detail too; the same word in an ask of another order still asks.
    const named = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Buy a kettle, express delivery to my office, pay by card.", dry_run: true },
    });
    expect(sc(named).capability).toBe("checkout");
    expect(text(named)).not.toContain("change_delivery_address");
    const other = await alice.callTool({
      name: "start_action",
      arguments: {
        intent:
          "Buy a kettle, express delivery to my office, and change the delivery address of my lamp order to home.",
        dry_run: true,
      },
    });
    expect(text(other)).toContain("change_delivery_address");
  });

  // Set BG: "paid by card" was offered as an after-sales request of its own, on a purchase. Review
  // 59c: a participle clause whose words set no field of the action is still an ask.
  it("'…, paid by card' is how the purchase is paid; '…, marked with urgent priority' still asks", async () => {
    const alice = await w.connect(w.keys.alice);
    const res = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Buy two Signpost Mugs, standard shipping to my office, paid by card." },
    });
    expect(sc(res).capability).toBe("checkout");
    expect(text(res)).not.toContain("after_sales");
    const sam = await w.connect(w.keys.sam);
    await sam.callTool({
      name: "start_action",
      arguments: { intent: "Give tkt_2 to Sara, marked with urgent priority." },
    });
    expect(await legacyJson(w.legacy, "tickets/tkt_2")).toMatchObject({
      assignee_id: "tm_sara",
      priority: "urgent",
    });
  });

  // Set BJ, task 7: "paid from my balance" was offered as an after-sales request, and its
  // payment_type left for the model to send: "paid" shared too few letters with `payment`.
  it("'…, paid from my balance' sets the payment of a checkout submitted with the words; '…, moved to billing' still asks", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const res = await alice.callTool({
      name: "submit",
      arguments: {
        uri: "shop://checkout",
        fields: { user_words: "Check out my cart, shipped to my home, paid from my balance." },
      },
    });
    expect(text(res)).toContain("payment_type = balance");
    expect(text(res)).not.toContain("after_sales");
    // Set BQ: a dry run read the same words as an after-sales ask (its preview had no set words).
    const preview = await (await w.connect(w.keys.alice)).callTool({
      name: "start_action",
      arguments: {
        intent: "Buy everything in my cart with the cheapest shipping to my home, paid from my balance.",
        dry_run: true,
      },
    });
    expect(sc(preview)).toMatchObject({ outcome: "preview", capability: "checkout" });
    expect(text(preview)).toContain("payment_type = balance");
    expect(text(preview)).not.toContain("after_sales");
    expect(JSON.stringify(sc(preview))).not.toContain("field_words");
    // Set BT: the same words beside the fields they name, sent by the form: no ask either.
    const sent = await alice.callTool({
      name: "submit",
      arguments: {
        uri: "shop://checkout",
        fields: {
          from_cart: true,
          address_id: "addr_alice_office",
          shipping_method: "standard",
          payment_type: "balance",
          user_words: "Buy what's in my cart with standard shipping to my office, paid from my store credit.",
        },
      },
    });
    expect(text(sent)).toContain("Pay with:** Store credit");
    expect(text(sent)).not.toContain("after_sales");
    // Review 60b: read as "pay", "…, paid by card" after another ask started a purchase or a
    // payment; it says how the ask before was paid, never which capability is asked for.
    const after = await w.connect(w.keys.alice);
    const start = async (intent: string) =>
      sc(await after.callTool({ name: "start_action", arguments: { intent } }));
    expect(await start("Return the kettle from ord_delivered, paid by card")).toMatchObject({
      capability: "after_sales",
    });
    expect((await start("Where is my kettle order ord_pending? Paid by card.")).capability).not.toBe(
      "pay_order",
    );
    expect(await start("Buy one desk lamp to my office, paid by card")).toMatchObject({
      capability: "checkout",
      from_words: { payment_type: "card" },
    });
    // Sets BK and BN: "buy" and a count ask for a new order, as "order two tees" does: the
    // purchase tied with an address change or an exchange of sizes (ambiguous_intent).
    for (const intent of [
      "Buy one Desk Lamp with express shipping to my office, paid by card.",
      "Buy two Logo Tees in size M, express shipping to my home, paid by card.",
    ])
      expect(await start(intent), intent).toMatchObject({
        capability: "checkout",
        from_words: { shipping_method: "express", payment_type: "card" },
      });
    // Review 60c: a payment told of in a sentence of its own, or with when it was, chooses nothing.
    for (const intent of [
      "Buy a desk lamp. Paid by card on my previous order.",
      "Buy a desk lamp, paid by card in March and it was charged twice.",
      "Pay ord_pending. Paid by card for the lamp order, so use balance this time",
    ])
      expect((await start(intent)).from_words, intent).not.toMatchObject({ payment_type: "card" });
    // Review 60: a payment told of, not asked for, chooses nothing.
    for (const intent of [
      "Check out my cart to my home, like the order I paid by card.",
      "Check out my cart to my home. I already paid by card for ord_paid.",
    ]) {
      const told = await (await w.connect(w.keys.alice)).callTool({
        name: "start_action",
        arguments: { intent },
      });
      expect(sc(told).from_words, intent).not.toHaveProperty("payment_type");
    }
    const sam = await w.connect(w.keys.sam);
    // Review 60: "shipping" is a word of the teammate "Sara Shipping", never the assignment's.
    for (const intent of [
      "Give tkt_2 to Sara, moved to the billing team.",
      "Give tkt_1 to Sara, moved to shipping.",
      "Give tkt_1 to Sara, moved on to shipping.",
    ]) {
      const give = await sam.callTool({ name: "start_action", arguments: { intent } });
      expect(text(give), intent).toContain("move_ticket_to_team");
    }
  });

  it("'Only the mugs' narrows the purchase, no return of mugs (set I, task 2)", async () => {
    const alice = await w.connect(w.keys.alice);
    const res = await alice.callTool({
      name: "start_action",
      arguments: {
        intent: "Buy two mugs, standard shipping to my home, pay from my store credit. Only the mugs.",
      },
    });
    const out = sc(res);
    expect(out.capability).toBe("checkout");
    expect(out.from_words).toMatchObject({ items: "2 × prod_mug (Signpost Mug)" });
    expect(out.also_asked).toBeUndefined();
    expect(text(res)).not.toContain("after_sales");
    // A count beside what is bought is the purchase's too (set K: "… and one mug" → after_sales).
    const two = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Buy a Logo Tee in size L and one mug, express to my home, pay by card." },
    });
    expect(sc(two).capability).toBe("checkout");
    expect(text(two)).not.toContain("also asked");
    // "Just the lamp" after a purchase of a lamp reads the same way.
    const lamp = await (await w.connect(w.keys.alice)).callTool({
      name: "start_action",
      arguments: { intent: "Buy one desk lamp, standard to my office, pay by card. Just the lamp, please." },
    });
    expect(text(lamp)).not.toContain("also asked");
  });
});
