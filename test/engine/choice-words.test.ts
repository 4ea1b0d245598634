import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  fieldOfLists,
  freeTextInWords,
  isFreeText,
  itemShapeOf,
  itemsInWords,
  rowsCarrying,
} from "@/server/engine/choice-words";

const items = z.array(z.object({ product_id: z.string(), quantity: z.number().int() }).strict());
const lists = {
  cart: [
    { product_id: "prod_mug", name: "Signpost Mug", quantity: 2 },
    { product_id: "prod_tee", name: "Logo Tee (M)", quantity: 1 },
  ],
  catalog: [
    { product_id: "prod_mug", name: "Signpost Mug" },
    { product_id: "prod_tee_l", name: "Logo Tee (L)" },
    { product_id: "prod_tee_s", name: "Logo Tee (S)" },
  ],
};

/** The words → choices mechanism on its own: list fields and free text, for any connector's rows. */
describe("choice words", () => {
  const shape = itemShapeOf(items);
  const rows = rowsCarrying("product_id", lists);

  it("reads a list field's shape, and which field each option list fills", () => {
    expect(shape).toEqual({ key: "product_id", count: "quantity" });
    expect(itemShapeOf(z.string())).toBeUndefined();
    const fields = { items, coupon_code: z.string().optional() };
    expect(fieldOfLists(fields, { ...lists, available_coupons: [{ code: "SAVE5" }] })).toEqual({
      cart: "items[].product_id",
      catalog: "items[].product_id",
      available_coupons: "coupon_code",
    });
  });

  it("names entries by name and size with their counts; a list named whole takes its rows and counts; ties are candidates", () => {
    if (!shape) throw new Error("no shape");
    expect(itemsInWords(rows, shape, "buy 2 Logo Tee L and a mug, ship to the office")).toEqual({
      kind: "items",
      items: [
        { product_id: "prod_tee_l", quantity: 2 },
        { product_id: "prod_mug", quantity: 1 },
      ],
    });
    expect(itemsInWords(rows, shape, "two Signpost mugs please")).toMatchObject({
      items: [{ product_id: "prod_mug", quantity: 2 }],
    });
    expect(itemsInWords(rows, shape, "everything in my cart")).toEqual({
      kind: "items",
      items: [
        { product_id: "prod_mug", quantity: 2 },
        { product_id: "prod_tee", quantity: 1 },
      ],
    });
    // A catalog is never taken whole: it has no counted lines.
    expect(itemsInWords(rows, shape, "everything in the catalog").kind).toBe("none");
    const tee = itemsInWords(rows, shape, "a tee");
    expect(tee.kind).toBe("several");
    expect(itemsInWords(rows, shape, "pay from my balance").kind).toBe("none");
  });

  it("takes free text only where the words clearly give it", () => {
    const resolution = z.string().min(10).max(2000);
    expect(isFreeText("resolution", resolution, {})).toBe(true);
    expect(isFreeText("address_id", z.string().max(64), {})).toBe(false);
    expect(freeTextInWords("resolution", "close tkt_1; resolution: refunded the charge", false)).toBe(
      "refunded the charge",
    );
    expect(freeTextInWords("reason", 'return it, "arrived broken"', true)).toBe("arrived broken");
    // Two free-text fields missing: a lone quote is not taken for either.
    expect(freeTextInWords("reason", 'return it, "arrived broken"', false)).toBeUndefined();
    expect(freeTextInWords("resolution", "resolve tkt_1, it is done", true)).toBeUndefined();
  });
});
