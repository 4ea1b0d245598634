import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Everyday words that cost round 28's model a call each, started in one: the verb the request
 * opens with settles a near tie, a status question goes to the read, a path's everyday name
 * ("send back", "swap"), a size said as a word ("a large one"), a message for the customer.
 */
describe("everyday words start the change they name", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const start = async (key: string, intent: string) =>
    (await w.connect(key)).callTool({ name: "start_action", arguments: { intent } });

  it("'Pay for the kettle order with my card' pays the unpaid order; 'has it shipped yet?' tracks it", async () => {
    const pay = sc(await start(w.keys.alice, "Pay for the kettle order with my card."));
    expect(pay).toMatchObject({ capability: "pay_order", status: "awaiting_approval" });
    expect(pay.from_words).toMatchObject({ order_id: "ord_pending", payment_type: "card" });
    // With a colon or a comma: the question's "shipped" asks about the lamp order, never
    // describes it (set AI review: the comma read the one shipped order in its place).
    for (const words of ["My lamp order: has it shipped yet?", "My lamp order, has it shipped yet?"]) {
      const track = await start(w.keys.alice, words);
      expect(sc(track), words).toMatchObject({ capability: "track_shipment", reason: "not_shipped" });
      expect(text(track)).toContain("order_id = ord_paid");
    }
  });

  it("'send back the backpack' is its return; 'swap my tee for a large one' the exchange for size L", async () => {
    const back = sc(await start(w.keys.alice, "Send back the backpack, it's too big for me."));
    expect(back.from_words).toMatchObject({ order_id: "ord_shipdiff", kind: "return_refund" });
    const swap = sc(await start(w.keys.alice, "Swap my tee for a large one."));
    expect(swap.status).toBe("awaiting_approval");
    // A size letter tells less than a word: "a large mug" is the mug, not the tee in L (a review).
    const mug = sc(
      await (await w.connect(w.keys.alice)).callTool({
        name: "start_action",
        arguments: { capability: "checkout", intent: "Buy a large mug", dry_run: true },
      }),
    );
    expect((mug.from_words as Json).items).toBe("1 × prod_mug (Signpost Mug)");
    // A thing named by its price is one of it, not the cart line's quantity (the cart holds 2 mugs).
    const cheapest = sc(
      await (await w.connect(w.keys.alice)).callTool({
        name: "start_action",
        arguments: { capability: "checkout", intent: "Buy the cheapest product", dry_run: true },
      }),
    );
    expect((cheapest.from_words as Json).items).toBe("1 × prod_mug");
    expect(swap.from_words).toMatchObject({
      order_id: "ord_exchange",
      kind: "exchange",
      replacement_product_id: "prod_tee_l",
    });
  });

  it("'tell the customer on the kettle refund ticket …' is a comment on that ticket", async () => {
    const out = sc(
      await start(
        w.keys.sam,
        "Tell the customer on the kettle refund ticket that their refund was approved.",
      ),
    );
    expect(out.capability).toBe("comment_ticket");
    expect((out.from_words as Json).ticket_id).toBe("tkt_3");
  });
});
