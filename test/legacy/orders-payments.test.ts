import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type RunningLegacy, startLegacy } from "@/test/helpers/legacy-server";
import { call } from "./legacy-http";

let legacy: RunningLegacy;
beforeAll(async () => {
  legacy = await startLegacy();
});
afterAll(async () => {
  await legacy.stop();
});
beforeEach(async () => {
  await legacy.reset();
});

const newOrder = (overrides: Record<string, unknown> = {}) =>
  call(legacy, "POST", "/v1/orders", {
    body: {
      customer_id: "cus_alice",
      items: [{ product_id: "prod_kettle", quantity: 1 }],
      address_id: "addr_alice_office",
      shipping_method: "standard",
      ...overrides,
    },
  });

describe("orders", () => {
  test("an order is priced from items, shipping quote and coupon, and reserves stock", async () => {
    const quote = await call(legacy, "POST", "/v1/shipping/quotes", {
      body: {
        customer_id: "cus_alice",
        address_id: "addr_alice_office",
        items: [{ product_id: "prod_lamp", quantity: 1 }],
      },
    });
    const express = quote.body.quotes.find((q: { method: string }) => q.method === "express");
    const created = await newOrder({
      items: [{ product_id: "prod_lamp", quantity: 1 }],
      shipping_method: "express",
      coupon_code: "SAVE30",
      reference: "act_123",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: "pending_payment",
      subtotal: 32000,
      discount: 3000,
      shipping_method: "express",
      shipping_price: express.price,
      total: 32000 - 3000 + express.price,
      coupon_code: "SAVE30",
      reference: "act_123",
      payment: null,
      shipment: null,
      address: { id: "addr_alice_office", label: "Office", city: "Springfield" },
    });
    const inventory = await call(legacy, "GET", "/v1/inventory/prod_lamp");
    expect(inventory.body).toEqual({ product_id: "prod_lamp", available: 4, reserved: 2 });
    const byRef = await call(legacy, "GET", "/v1/orders?reference=act_123");
    expect(byRef.body.data.map((o: { id: string }) => o.id)).toEqual([created.body.id]);
  });

  test("coupon eligibility depends on the subtotal", async () => {
    const small = await newOrder({ items: [{ product_id: "prod_mug", quantity: 1 }], coupon_code: "SAVE30" });
    expect(small.status).toBe(409);
    expect(small.body.error.code).toBe("coupon_not_eligible");
    const unknown = await newOrder({ coupon_code: "NOPE" });
    expect(unknown.body.error.code).toBe("coupon_invalid");
    const coupons = await call(legacy, "GET", "/v1/coupons?subtotal=31000");
    const byCode = Object.fromEntries(coupons.body.data.map((c: { code: string }) => [c.code, c]));
    expect(byCode.SAVE30).toMatchObject({ eligible: true, reason: null });
    expect(byCode.BIG100.eligible).toBe(false);
    expect(byCode.BIG100.reason).toMatch(/below the minimum/);
    // Without a subtotal, the customer's cart decides (2 mugs + 1 tee = 6100).
    const cart = await call(legacy, "GET", "/v1/coupons?customer_id=cus_alice");
    const save5 = cart.body.data.find((c: { code: string }) => c.code === "SAVE5");
    const save30 = cart.body.data.find((c: { code: string }) => c.code === "SAVE30");
    expect([save5.eligible, save30.eligible]).toEqual([true, false]);
  });

  test("stock and shipping method are checked", async () => {
    const tooMany = await newOrder({ items: [{ product_id: "prod_lamp", quantity: 6 }] });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toMatchObject({ code: "insufficient_stock", details: { available: 5 } });
    const soldOut = await newOrder({ items: [{ product_id: "prod_tee_xl", quantity: 1 }] });
    expect(soldOut.body.error.code).toBe("insufficient_stock");
    const sameDayHome = await newOrder({ address_id: "addr_alice_home", shipping_method: "same_day" });
    expect(sameDayHome.status).toBe(409);
    expect(sameDayHome.body.error.code).toBe("shipping_method_unavailable");
    const sameDayOffice = await newOrder({ shipping_method: "same_day" });
    expect(sameDayOffice.status).toBe(201);
    const otherCustomersAddress = await newOrder({ address_id: "addr_adam_home" });
    expect(otherCustomersAddress.status).toBe(404);
    const badBody = await newOrder({ items: [], extra: 1 });
    expect(badBody.status).toBe(400);
    expect(badBody.body.error.code).toBe("invalid_request");
  });

  test("shipping quotes depend on weight and destination", async () => {
    const quote = (address_id: string, items: { product_id: string; quantity: number }[]) =>
      call(legacy, "POST", "/v1/shipping/quotes", {
        body: { customer_id: address_id.includes("sam") ? "cus_sam" : "cus_alice", address_id, items },
      });
    const light = await quote("addr_alice_office", [{ product_id: "prod_mug", quantity: 1 }]);
    const heavy = await quote("addr_alice_office", [{ product_id: "prod_lamp", quantity: 2 }]);
    const home = await quote("addr_alice_home", [{ product_id: "prod_mug", quantity: 1 }]);
    const abroad = await quote("addr_sam_home", [{ product_id: "prod_mug", quantity: 1 }]);
    const price = (r: { body: { quotes: { method: string; price: number }[] } }, m: string) =>
      r.body.quotes.find((q) => q.method === m)?.price;
    expect(price(heavy, "standard")).toBeGreaterThan(price(light, "standard") ?? Infinity);
    expect(light.body.quotes.map((q: { method: string }) => q.method)).toContain("same_day");
    expect(home.body.quotes.map((q: { method: string }) => q.method)).not.toContain("same_day");
    expect(price(abroad, "standard")).toBe(3 * (price(home, "standard") ?? 0));
  });
});

describe("payments", () => {
  test("paying with balance debits it and marks the order paid", async () => {
    const before = await call(legacy, "GET", "/v1/customers/cus_alice");
    const order = await call(legacy, "GET", "/v1/orders/ord_pending");
    const paid = await call(legacy, "POST", "/v1/payments", {
      body: {
        order_id: "ord_pending",
        payment_method_id: "pm_alice_balance",
        amount: order.body.total,
        reference: "act_pay",
      },
    });
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({
      order_id: "ord_pending",
      status: "succeeded",
      method: "balance",
      reference: "act_pay",
    });
    const after = await call(legacy, "GET", "/v1/customers/cus_alice");
    expect(after.body.balance).toBe(before.body.balance - order.body.total);
    expect((await call(legacy, "GET", "/v1/orders/ord_pending")).body).toMatchObject({
      status: "paid",
      payment: { id: paid.body.id, amount: order.body.total, method: "balance" },
    });
    const byRef = await call(legacy, "GET", "/v1/payments?reference=act_pay");
    expect(byRef.body.total).toBe(1);
    expect((await call(legacy, "GET", `/v1/payments/${paid.body.id}`)).body.id).toBe(paid.body.id);
    const methods = await call(legacy, "GET", "/v1/customers/cus_alice/payment-methods");
    expect(methods.body.data.find((m: { type: string }) => m.type === "balance").available).toBe(
      after.body.balance,
    );
  });

  test("orders filter by how they were paid: store credit, card, and an unpaid order by neither", async () => {
    const ids = async (method: string) =>
      (await call(legacy, "GET", `/v1/orders?customer_id=cus_alice&payment_method=${method}`)).body.data
        .map((o: { id: string }) => o.id)
        .sort();
    expect(await ids("balance")).toEqual(["ord_exchange"]);
    const card = await ids("card");
    expect(card).toContain("ord_paid");
    expect(card).not.toContain("ord_exchange");
    expect(card).not.toContain("ord_pending");
    // Paid from the balance now: it is listed with the orders the balance paid.
    const order = await call(legacy, "GET", "/v1/orders/ord_pending");
    await call(legacy, "POST", "/v1/payments", {
      body: { order_id: "ord_pending", payment_method_id: "pm_alice_balance", amount: order.body.total },
    });
    expect(await ids("balance")).toEqual(["ord_exchange", "ord_pending"]);
    expect((await call(legacy, "GET", "/v1/orders?payment_method=cash")).status).toBe(400);
  });

  test("insufficient balance, wrong amount and an unpayable order are refused without effect", async () => {
    const order = await call(legacy, "POST", "/v1/orders", {
      body: {
        customer_id: "cus_adam",
        items: [{ product_id: "prod_mug", quantity: 1 }],
        address_id: "addr_adam_home",
        shipping_method: "standard",
      },
    });
    const poor = await call(legacy, "POST", "/v1/payments", {
      body: { order_id: order.body.id, payment_method_id: "pm_adam_balance", amount: order.body.total },
    });
    expect(poor.status).toBe(409);
    expect(poor.body.error).toMatchObject({
      code: "insufficient_balance",
      details: { available: 0, required: order.body.total },
    });
    const wrong = await call(legacy, "POST", "/v1/payments", {
      body: { order_id: order.body.id, payment_method_id: "pm_adam_card", amount: order.body.total - 1 },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.code).toBe("amount_mismatch");
    const foreignMethod = await call(legacy, "POST", "/v1/payments", {
      body: { order_id: order.body.id, payment_method_id: "pm_alice_card", amount: order.body.total },
    });
    expect(foreignMethod.status).toBe(404);
    expect((await call(legacy, "GET", `/v1/orders/${order.body.id}`)).body.status).toBe("pending_payment");
    const again = await call(legacy, "POST", "/v1/payments", {
      body: { order_id: "ord_paid", payment_method_id: "pm_alice_card", amount: 31600 },
    });
    expect(again.body.error.code).toBe("order_not_payable");
  });
});

describe("fulfilment and cancellation", () => {
  test("paid → shipped → delivered, with tracking events", async () => {
    const notYet = await call(legacy, "GET", "/v1/orders/ord_paid/tracking");
    expect(notYet.status).toBe(409);
    expect(notYet.body.error.code).toBe("not_shipped");
    const shipped = await call(legacy, "POST", "/v1/orders/ord_paid/ship", { body: { carrier: "DHL" } });
    expect(shipped.body).toMatchObject({
      status: "shipped",
      shipment: { carrier: "DHL", status: "in_transit" },
    });
    expect((await call(legacy, "GET", "/v1/inventory/prod_lamp")).body.reserved).toBe(0);
    const delivered = await call(legacy, "POST", "/v1/orders/ord_paid/deliver");
    expect(delivered.body.status).toBe("delivered");
    expect(delivered.body.delivered_at).not.toBeNull();
    const tracking = await call(legacy, "GET", "/v1/orders/ord_paid/tracking");
    expect(tracking.body.events.map((e: { description: string }) => e.description).at(-1)).toBe("Delivered");
    const transit = await call(legacy, "GET", "/v1/orders/ord_transit/tracking");
    expect(transit.body.status).toBe("in_transit");
    expect(transit.body.events.length).toBeGreaterThanOrEqual(3);
    expect((await call(legacy, "POST", "/v1/orders/ord_pending/ship")).body.error.code).toBe(
      "order_not_paid",
    );
  });

  test("cancel: pending releases stock, paid refunds in full, shipped is refused", async () => {
    const pending = await call(legacy, "POST", "/v1/orders/ord_pending/cancel");
    expect(pending.body.status).toBe("cancelled");
    expect((await call(legacy, "GET", "/v1/inventory/prod_kettle")).body).toMatchObject({
      available: 13,
      reserved: 0,
    });
    const paid = await call(legacy, "POST", "/v1/orders/ord_paid/cancel", {
      body: { reason: "changed mind" },
    });
    expect(paid.body.status).toBe("cancelled");
    expect(paid.body.refunds).toMatchObject([{ kind: "cancellation", amount: paid.body.total }]);
    expect(paid.body.refundable).toBe(0);
    const shipped = await call(legacy, "POST", "/v1/orders/ord_transit/cancel");
    expect(shipped.status).toBe(409);
    expect(shipped.body.error.code).toBe("order_already_shipped");
    expect((await call(legacy, "POST", "/v1/orders/ord_cancelled/cancel")).body.error.code).toBe(
      "order_cancelled",
    );
  });

  test("the demo orders are in the states API.md names", async () => {
    const states: Record<string, string> = {
      ord_pending: "pending_payment",
      ord_paid: "paid",
      ord_transit: "shipped",
      ord_delivered: "delivered",
      ord_exchange: "delivered",
      ord_shipdiff: "delivered",
      ord_cancelled: "cancelled",
    };
    for (const [id, status] of Object.entries(states)) {
      expect((await call(legacy, "GET", `/v1/orders/${id}`)).body.status, id).toBe(status);
    }
    const list = await call(legacy, "GET", "/v1/orders?customer_id=cus_alice&status=delivered&per_page=2");
    expect(list.body).toMatchObject({ page: 1, per_page: 2, total: 4, next_page: 2 });
  });
});
