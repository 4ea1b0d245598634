import { describe, expect, it } from "vitest";
import { afterSalesPaths } from "@/server/connectors/shop/after-sales-eligibility";
import type { ShopOrder } from "@/server/connectors/shop/shop-adapter";

const now = new Date("2026-06-15T12:00:00.000Z");
const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString();

function delivered(deliveredDaysAgo: number, returnsUntil: string | null): ShopOrder {
  return {
    id: "ord_x",
    customer_id: "cus_x",
    shipping_method: "standard",
    shipping_price: 500,
    status: "delivered",
    items: [
      { id: "it_1", product_id: "prod_mug", name: "Mug", quantity: 1, unit_price: 1800, exchangeable: true },
    ],
    subtotal: 1800,
    discount: 0,
    total: 2300,
    address: null,
    payment: { id: "pay_1", status: "succeeded", amount: 2300, method: "balance" },
    shipment: null,
    shipping_difference: 0,
    refunds: [],
    created_at: daysAgo(deliveredDaysAgo + 5),
    updated_at: daysAgo(deliveredDaysAgo),
    delivered_at: daysAgo(deliveredDaysAgo),
    returns_until: returnsUntil,
  };
}

const pathOf = (order: ShopOrder, kind: string) => afterSalesPaths(order, now).find((p) => p.kind === kind);

describe("the return window is the shop's, read from the order", () => {
  it("a shop with a 3-day window: delivered 5 days ago is closed (a 30-day constant would say open)", () => {
    const order = delivered(5, daysAgo(2));
    expect(pathOf(order, "return_refund")).toEqual({
      kind: "return_refund",
      eligible: false,
      reason: "return_window_closed",
      message: `The return window closed on ${daysAgo(2).slice(0, 10)}`,
    });
    expect(pathOf(order, "exchange")).toMatchObject({ eligible: false, reason: "return_window_closed" });
  });

  it("a shop with a 90-day window: delivered 40 days ago is still open", () => {
    const until = new Date(now.getTime() + 50 * 86_400_000).toISOString();
    const order = delivered(40, until);
    expect(pathOf(order, "return_refund")).toEqual({
      kind: "return_refund",
      eligible: true,
      message: `Items can be returned for a refund until ${until.slice(0, 10)}`,
    });
    expect(pathOf(order, "exchange")).toMatchObject({ eligible: true });
  });

  it("a delivered order the shop gives no return date takes no returns", () => {
    expect(pathOf(delivered(1, null), "return_refund")).toMatchObject({
      eligible: false,
      reason: "return_window_closed",
      message: "The return window is not open for this order",
    });
  });
});
