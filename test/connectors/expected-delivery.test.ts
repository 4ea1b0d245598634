import { describe, expect, it } from "vitest";
import { expectedDelivery } from "@/server/connectors/shop/expected-delivery";
import type { ShopAdapter, ShopOrder, ShopQuote } from "@/server/connectors/shop/shop-adapter";

/**
 * The expected-delivery line's arithmetic, apart from a live shop (test/mcp/order-expected-
 * delivery.test.ts plays it through MCP): whole calendar days in UTC from the payment, or from
 * the shipping where no payment is on record; due today is not late; no quote for the method, no
 * line; an order not on its way asks nothing.
 */
describe("expectedDelivery", () => {
  const NOW = Date.parse("2026-12-06T07:00:00Z");
  const order = (over: Partial<ShopOrder> = {}): ShopOrder =>
    ({
      id: "ord_x",
      customer_id: "cus_x",
      status: "shipped",
      items: [
        { id: "oi", product_id: "prod_x", name: "X", quantity: 1, unit_price: 100, exchangeable: false },
      ],
      shipping_method: "express",
      address: {
        id: "addr_x",
        label: "Home",
        line1: "1 A St",
        city: "Town",
        postal_code: "1",
        country: "US",
      },
      paid_at: "2026-12-03T23:30:00Z",
      shipped_at: "2026-12-04T10:00:00Z",
      ...over,
    }) as ShopOrder;
  const shop = (quotes: ShopQuote[] | null) => {
    const asked: unknown[] = [];
    const adapter = {
      async quotes(input: unknown) {
        asked.push(input);
        return quotes ? { ok: true as const, quotes } : { ok: false as const, code: "down", message: "down" };
      },
    } as unknown as ShopAdapter;
    return { adapter, asked };
  };
  const express = { method: "express", price: 1200, eta_days: 2 } as const;

  it("from payment, by the calendar: paid late on the 3rd, two days is the 5th, a day late on the 6th", async () => {
    const { adapter, asked } = shop([express]);
    expect(await expectedDelivery(adapter, order(), NOW)).toBe(
      "about 2026-12-05, 1 day late (express: 2 days from payment, as quoted; the carrier gives no date)",
    );
    expect(asked).toEqual([
      { customer_id: "cus_x", address_id: "addr_x", items: [{ product_id: "prod_x", quantity: 1 }] },
    ]);
  });

  it("from shipping where no payment is on record; due today is not late; ahead says neither", async () => {
    const { adapter } = shop([{ ...express, eta_days: 1 }]);
    expect(
      await expectedDelivery(adapter, order({ paid_at: null, shipped_at: "2026-12-05T01:00:00Z" }), NOW),
    ).toBe(
      "about 2026-12-06, due today (express: 1 day from shipping, as quoted; the carrier gives no date)",
    );
    expect(await expectedDelivery(adapter, order({ paid_at: "2026-12-06T06:00:00Z" }), NOW)).toBe(
      "about 2026-12-07 (express: 1 day from payment, as quoted; the carrier gives no date)",
    );
  });

  it("no line when the method is not quoted or the quote fails; no question at all when not on its way", async () => {
    expect(
      await expectedDelivery(shop([{ ...express, method: "standard" }]).adapter, order(), NOW),
    ).toBeNull();
    expect(await expectedDelivery(shop(null).adapter, order(), NOW)).toBeNull();
    for (const status of ["pending_payment", "paid", "delivered", "cancelled"] as const) {
      const { adapter, asked } = shop([express]);
      expect(await expectedDelivery(adapter, order({ status }), NOW)).toBeNull();
      expect(asked).toEqual([]);
    }
  });
});
