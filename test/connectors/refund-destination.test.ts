import { describe, expect, it } from "vitest";
import { askedRefundTo, refundDestinationLine } from "../../server/connectors/shop/refund-destination";
import type { ShopOrder } from "../../server/connectors/shop/shop-adapter";

const paidBy = (method: string) => ({ payment: { method } }) as unknown as ShopOrder;

/**
 * Issue 23: "refund it to my store credit" went to the card with no word that store credit was
 * impossible. The destination the user asked for is read from the field or their words, and the
 * money line says when the refund cannot go there, either way round.
 */
describe("refund destination asked vs how the order was paid", () => {
  it("reads one destination from the words, none where both or neither are named", () => {
    expect(askedRefundTo({ reason: "Cancel it and refund it to my store credit." })).toBe("balance");
    expect(askedRefundTo({ reason: "put it back on my credit card please" })).toBe("card");
    expect(askedRefundTo({ reason: "changed my mind" })).toBeUndefined();
    expect(askedRefundTo({ reason: "paid by card, want store credit" })).toBeUndefined();
    expect(askedRefundTo({ refund_to: "balance", reason: "to my card" })).toBe("balance");
    // A word inside another is no destination ("discard").
    expect(askedRefundTo({ reason: "I will discard it" })).toBeUndefined();
  });

  it("says the refund cannot go elsewhere, both ways round, and nothing extra when it can", () => {
    expect(refundDestinationLine("Visa •••• 4242", paidBy("card"), "balance")).toBe(
      "Visa •••• 4242 — not store credit as asked: a refund can only go back to how the order was paid",
    );
    expect(refundDestinationLine("Store credit", paidBy("balance"), "card")).toMatch(
      /^Store credit — not a card as asked/,
    );
    expect(refundDestinationLine("Visa •••• 4242", paidBy("card"), "card")).toBe(
      "Visa •••• 4242 (how the order was paid; a refund goes nowhere else)",
    );
    expect(refundDestinationLine("Visa •••• 4242", paidBy("card"), undefined)).toBe(
      "Visa •••• 4242 (how the order was paid; a refund goes nowhere else)",
    );
  });
});
