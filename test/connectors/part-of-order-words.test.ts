import { describe, expect, it } from "vitest";
import { partOfOrderWords } from "../../server/connectors/shop/part-of-order-words";
import type { ShopOrder } from "../../server/connectors/shop/shop-adapter";

const order = {
  id: "ord_paid",
  items: [
    { id: "i1", name: "Desk Lamp", quantity: 1 },
    { id: "i2", name: "Signpost Mug", quantity: 1 },
  ],
} as unknown as ShopOrder;

const part = (words: string) => {
  const p = partOfOrderWords(order, words);
  return p && { asked: p.asked.map((i) => i.id), kept: p.kept.map((i) => i.id) };
};

/**
 * Played: "in my lamp order I only want to cancel the lamp and keep the mug" went to the user's
 * approval as the whole order cancelled. Items named to describe the order ask nothing; items
 * named to go or to stay ask for part of it.
 */
describe("words asking for part of an order", () => {
  it("reads the lines asked and the lines kept", () => {
    expect(part("In my lamp order I only want to cancel the lamp and keep the mug.")).toEqual({
      asked: ["i1"],
      kept: ["i2"],
    });
    expect(part("refund the lamp from my lamp order")).toEqual({ asked: ["i1"], kept: ["i2"] });
    expect(part("Refund just the mug in my lamp order, I still want the lamp")).toEqual({
      asked: ["i2"],
      kept: ["i1"],
    });
    expect(part("cancel everything but the mugs")).toEqual({ asked: ["i1"], kept: ["i2"] });
  });

  it("an order named by its items, every item, or the whole of it: no part", () => {
    for (const words of [
      "cancel my lamp order",
      "Cancel my lamp order and refund it to my store credit.",
      "cancel the order with the lamp and the mug",
      "cancel the order that has the lamp",
      "cancel the lamp and the mug",
      "Cancel the whole lamp order, I don't need the lamp any more",
      "changed my mind",
    ])
      expect(part(words), words).toBeUndefined();
  });

  it("an order of one line has no part to ask for", () => {
    const one = { ...order, items: [order.items[0]] } as ShopOrder;
    expect(partOfOrderWords(one, "cancel the lamp")).toBeUndefined();
  });
});
