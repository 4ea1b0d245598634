import { describe, expect, it } from "vitest";
import { afterSalesNow, afterSalesPaths } from "@/server/connectors/shop/after-sales-eligibility";
import { openItems, settledItems } from "@/server/connectors/shop/after-sales-items";
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
      message: `Items can be returned for a refund until ${until.slice(0, 10)}: Mug`,
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

describe("lines an earlier return or exchange settled are not offered again", () => {
  const open = new Date(now.getTime() + 10 * 86_400_000).toISOString();
  const twoLines = (): ShopOrder => {
    const order = delivered(3, open);
    order.items.push({
      id: "it_2",
      product_id: "prod_kettle",
      name: "Kettle",
      quantity: 1,
      unit_price: 15000,
      exchangeable: false,
    });
    return order;
  };

  it("an exchange in the order's refunds list settles its item, even without item statuses", () => {
    const order = twoLines();
    order.refunds = [
      {
        id: "exc_1",
        kind: "exchange",
        amount: 0,
        status: "succeeded",
        details: { item_id: "it_1" },
        created_at: daysAgo(1),
      },
    ];
    expect(openItems(order).map((i) => i.id)).toEqual(["it_2"]);
    expect(pathOf(order, "return_refund")).toMatchObject({ eligible: true });
    expect(pathOf(order, "return_refund")?.message).toMatch(
      /: Kettle \(not again: Mug \(it_1\) was already exchanged/,
    );
    expect(pathOf(order, "exchange")).toMatchObject({ eligible: false, reason: "nothing_left_to_exchange" });
  });

  it("every line returned (by the refunds list or the line's own status): nothing left to return", () => {
    const order = twoLines();
    order.refunds = [
      { id: "ret_1", kind: "return", amount: 15000, status: "succeeded", details: { item_ids: ["it_2"] } },
    ];
    (order.items[0] as { status?: string }).status = "returned";
    expect(settledItems(order)).toEqual(
      new Map([
        ["it_2", { how: "returned", record: "ret_1", on: undefined }],
        ["it_1", { how: "returned" }],
      ]),
    );
    expect(pathOf(order, "return_refund")).toMatchObject({
      eligible: false,
      reason: "nothing_left_to_return",
      message: expect.stringMatching(/^Nothing is left to return: Mug \(it_1\) was already returned; Kettle/),
    });
  });

  it("a refund-only or shipping refund settles no line", () => {
    const order = twoLines();
    order.refunds = [
      { id: "ref_1", kind: "shipping_refund", amount: 200, status: "succeeded", details: {} },
      { id: "ref_2", kind: "refund", amount: 100, status: "succeeded", details: null },
    ];
    expect(openItems(order).map((i) => i.id)).toEqual(["it_1", "it_2"]);
  });
});

/**
 * Issue 23: a line's `false` carried no reason ("returnable: false" on an in-transit order, while
 * only the order said "a return is possible once delivered"). Each false flag now says why, in a
 * few words: the line's own reason on the line, the order's reason once for all its lines.
 */
describe("every false item flag carries its reason, the order's said once", () => {
  const until = new Date(now.getTime() + 10 * 86_400_000).toISOString();
  const teeAndMug = (): ShopOrder => {
    const order = delivered(3, until);
    order.items = [
      { id: "it_1", product_id: "prod_tee", name: "Tee", quantity: 1, unit_price: 2500, exchangeable: true },
      { id: "it_2", product_id: "prod_mug", name: "Mug", quantity: 2, unit_price: 1800, exchangeable: false },
    ];
    return order;
  };

  /** The flags a reason names before its words ("returnable, exchangeable: …"), each reason of a list. */
  const named = (reasons: string | undefined) =>
    (reasons ?? "")
      .split("; ")
      .flatMap((r) => (r.includes(": ") ? (r.split(": ")[0] ?? "").split(", ") : []));

  /**
   * Each false flag's reason names that flag: the line's own, else the order's. A line's reason
   * names only flags false on it (played: "product not exchangeable" beside "returnable: false"
   * on a lamp not shipped yet read as why it could not be returned).
   */
  function reasons(order: ShopOrder) {
    const now_ = afterSalesNow(order, now);
    for (const item of now_.items) {
      if (item.why_not) expect(named(item.why_not).length, item.id).toBeGreaterThan(0);
      for (const flag of named(item.why_not))
        expect(item[flag as "returnable"], `${item.id}.${flag}`).toBe(false);
      for (const flag of ["returnable", "exchangeable"] as const) {
        if (item[flag]) continue;
        expect(
          named(item.why_not).includes(flag) || named(now_.items_why_not).includes(flag),
          `${item.id}.${flag}`,
        ).toBe(true);
      }
    }
    return now_;
  }

  it("in transit: the order's reason once, the product's own on its line", () => {
    const order = teeAndMug();
    order.status = "shipped";
    order.delivered_at = null;
    order.returns_until = null;
    const out = reasons(order);
    expect(out.items_why_not).toBe("returnable, exchangeable: not delivered yet");
    expect(out.items.map((i) => [i.id, i.returnable, i.exchangeable, i.why_not])).toEqual([
      ["it_1", false, false, undefined],
      ["it_2", false, false, "exchangeable: product not exchangeable"],
    ]);
  });

  it("unpaid, cancelled, not shipped, window closed: each the order's few words", () => {
    const cases: Array<[Partial<ShopOrder>, string]> = [
      [{ status: "pending_payment", payment: null }, "not paid"],
      [{ status: "cancelled" }, "order cancelled"],
      [{ status: "paid" }, "not shipped yet"],
      [{ returns_until: daysAgo(1) }, `window closed ${daysAgo(1).slice(0, 10)}`],
      [{ returns_until: null }, "no return window"],
    ];
    for (const [change, words] of cases) {
      const out = reasons({ ...teeAndMug(), ...change });
      expect(out.items_why_not, words).toBe(`returnable, exchangeable: ${words}`);
    }
  });

  it("delivered, one line exchanged: its own reason on it; the mug says why it is not exchangeable; nothing for the order", () => {
    const order = teeAndMug();
    order.refunds = [
      { id: "exc_1", kind: "exchange", amount: 0, status: "succeeded", details: { item_id: "it_1" } },
    ];
    const out = reasons(order);
    expect(out.items_why_not).toBeUndefined();
    expect(out.items.map((i) => [i.id, i.returnable, i.exchangeable, i.why_not])).toEqual([
      ["it_1", false, false, "returnable, exchangeable: already exchanged"],
      ["it_2", true, false, "exchangeable: product not exchangeable"],
    ]);
  });

  it("in transit with only the product's reason for exchange: the order's reason names returnable alone", () => {
    const order = teeAndMug();
    order.items = order.items.slice(1);
    order.status = "shipped";
    const out = reasons(order);
    expect(out.items_why_not).toBe("returnable: not delivered yet");
    expect(out.items[0]?.why_not).toBe("exchangeable: product not exchangeable");
  });

  it("open lines carry no reason", () => {
    const out = reasons(teeAndMug());
    expect(out.items[0]).toMatchObject({ returnable: true, exchangeable: true });
    expect(out.items[0]?.why_not).toBeUndefined();
    expect(out.items_why_not).toBeUndefined();
  });
});
