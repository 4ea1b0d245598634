import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ConfirmationSummary } from "@/components/confirmation-summary";
import { summaryDiff } from "@/components/summary-diff";
import { decisionSentence } from "@/server/engine/decision-sentence";
import { summaryDigest } from "@/server/engine/summary-digest";

// A checkout summary as the shop connector writes it (server/connectors/shop/capabilities/checkout.ts).
const checkout = (quantity: number, balance = 100_000) => ({
  title: "Place the order and pay",
  decision: { verb: "Pay", amount: 1800 * quantity + 500, currency: "USD", from: "Store credit" },
  amount_label: "Total to be charged",
  items: [
    { product_id: "prod_mug", name: "Signpost Mug", quantity, unit_price: 1800, line_total: 1800 * quantity },
  ],
  subtotal: 1800 * quantity,
  shipping_method: { value: "standard", label: "Standard" },
  shipping_price: 500,
  coupon: null,
  discount: 0,
  amount: 1800 * quantity + 500,
  currency: "USD",
  delivery_estimate: "About 5 days after payment",
  address: "Office: 1 Market Street, 12345 Springfield, US",
  payment_method: { type: "balance", label: "Store credit" },
  now: { balance_before: balance, balance_after: balance - (1800 * quantity + 500) },
});

describe("the confirm screen's summary (the same markup in the console and the MCP App)", () => {
  it("says what happens in one sentence, from the connector's decision", () => {
    expect(decisionSentence(checkout(2))).toBe("Pay $41.00 from Store credit");
    expect(
      decisionSentence({ decision: { verb: "Refund", amount: 700, currency: "USD", to: "Store credit" } }),
    ).toBe("Refund $7.00 to Store credit");
    expect(decisionSentence({ decision: { verb: "Assign", object: "ticket T-1 to Bob" } })).toBe(
      "Assign ticket T-1 to Bob",
    );
    expect(decisionSentence({ amount: 5 })).toBeNull();
  });

  it("renders the sentence, what the total is, line totals, the address, the balance, who asked and until when", () => {
    const html = renderToStaticMarkup(
      createElement(ConfirmationSummary, {
        capability: "checkout",
        actionId: "act_1",
        version: 3,
        summary: checkout(2),
        status: "pending",
        request: {
          agentName: "Alice's assistant",
          requestedAt: "2026-12-01T10:00:00.000Z",
          expiresAt: "2026-12-01T10:30:00.000Z",
        },
      }),
    );
    const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(html).toContain('data-field="title">Pay $41.00 from Store credit</h2>');
    for (const expected of [
      "Total to be charged $41.00",
      "Signpost Mug 2 $18.00 $36.00",
      "Shipping (Standard) $5.00",
      "Office: 1 Market Street, 12345 Springfield, US",
      "Balance before $1,000.00",
      "Balance after $959.00",
      "Delivery About 5 days after payment",
      "Asked by Alice&#x27;s assistant, 1 Dec 2026, 10:00 UTC",
      "Valid until 1 Dec 2026, 10:30 UTC",
      "Waiting for approval",
    ])
      expect(text).toContain(expected);
    // Raw keys and enum values never show as such.
    expect(text).not.toMatch(/balance_before|payment_type|standard|\{/);
  });

  it("names what the agent changed, in the screen's words", () => {
    const changes = summaryDiff(checkout(2), checkout(3));
    expect(changes.map((c) => `${c.label}: ${c.before} → ${c.after}`)).toEqual(
      expect.arrayContaining([
        "What happens: Pay $41.00 from Store credit → Pay $59.00 from Store credit",
        "Items: Signpost Mug × 2 → Signpost Mug × 3",
        "Amount: $41.00 → $59.00",
        "Balance after: $959.00 → $941.00",
      ]),
    );
    expect(summaryDiff(checkout(2), checkout(2))).toEqual([]);
  });

  it("the balance shown for context is not part of what is approved (not in the digest)", () => {
    expect(summaryDigest(checkout(2, 100_000))).toBe(summaryDigest(checkout(2, 50_000)));
    expect(summaryDigest(checkout(2))).not.toBe(summaryDigest(checkout(3)));
  });
});
