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

const itemOf = async (orderId: string, productId: string): Promise<string> => {
  const order = await call(legacy, "GET", `/v1/orders/${orderId}`);
  return order.body.items.find((i: { product_id: string }) => i.product_id === productId).id;
};

describe("refund-only", () => {
  test("is refused for shipped and delivered orders with order_already_shipped", async () => {
    for (const id of ["ord_transit", "ord_delivered"]) {
      const res = await call(legacy, "POST", `/v1/orders/${id}/refunds`, {
        body: { amount: 100, reason: "late" },
      });
      expect(res.status, id).toBe(409);
      expect(res.body.error.code, id).toBe("order_already_shipped");
      expect((await call(legacy, "GET", `/v1/orders/${id}`)).body.refunds, id).toEqual([]);
    }
    expect(
      (await call(legacy, "POST", "/v1/orders/ord_pending/refunds", { body: { amount: 100, reason: "x" } }))
        .body.error.code,
    ).toBe("order_not_paid");
  });

  test("refunds a paid order up to what is refundable; a full refund cancels it", async () => {
    const partial = await call(legacy, "POST", "/v1/orders/ord_paid/refunds", {
      body: { amount: 1000, reason: "scratch", reference: "act_r1" },
    });
    expect(partial.status).toBe(201);
    expect(partial.body).toMatchObject({
      kind: "refund",
      amount: 1000,
      status: "succeeded",
      reference: "act_r1",
    });
    const order = await call(legacy, "GET", "/v1/orders/ord_paid");
    expect(order.body).toMatchObject({ status: "paid", refunded: 1000, refundable: order.body.total - 1000 });
    const tooMuch = await call(legacy, "POST", "/v1/orders/ord_paid/refunds", {
      body: { amount: order.body.refundable + 1, reason: "x" },
    });
    expect(tooMuch.body.error).toMatchObject({
      code: "amount_exceeds_refundable",
      details: { refundable: order.body.refundable },
    });
    await call(legacy, "POST", "/v1/orders/ord_paid/refunds", {
      body: { amount: order.body.refundable, reason: "rest" },
    });
    expect((await call(legacy, "GET", "/v1/orders/ord_paid")).body.status).toBe("cancelled");
    const listed = await call(legacy, "GET", "/v1/refunds?reference=act_r1");
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([partial.body.id]);
  });
});

describe("return and refund", () => {
  test("only after delivery and within 30 days", async () => {
    const transitItem = await itemOf("ord_transit", "prod_headphones");
    const early = await call(legacy, "POST", "/v1/orders/ord_transit/returns", {
      body: { item_ids: [transitItem], reason: "broken" },
    });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("order_not_delivered");
    const oldItem = await itemOf("ord_delivered_old", "prod_mug");
    const late = await call(legacy, "POST", "/v1/orders/ord_delivered_old/returns", {
      body: { item_ids: [oldItem], reason: "x" },
    });
    expect(late.body.error.code).toBe("return_window_closed");
  });

  test("refunds the returned lines, restocks them and refuses a second return", async () => {
    const kettle = await itemOf("ord_delivered", "prod_kettle");
    const stockBefore = (await call(legacy, "GET", "/v1/inventory/prod_kettle")).body.available;
    const ret = await call(legacy, "POST", "/v1/orders/ord_delivered/returns", {
      body: { item_ids: [kettle], reason: "too loud", evidence: ["photo-1.jpg"], reference: "act_ret" },
    });
    expect(ret.status).toBe(201);
    expect(ret.body).toMatchObject({
      kind: "return",
      amount: 15000,
      details: { item_ids: [kettle], evidence: ["photo-1.jpg"] },
    });
    expect((await call(legacy, "GET", "/v1/inventory/prod_kettle")).body.available).toBe(stockBefore + 1);
    const order = await call(legacy, "GET", "/v1/orders/ord_delivered");
    expect(order.body.items.find((i: { id: string }) => i.id === kettle).status).toBe("returned");
    const twice = await call(legacy, "POST", "/v1/orders/ord_delivered/returns", {
      body: { item_ids: [kettle], reason: "again" },
    });
    expect(twice.body.error.code).toBe("item_already_returned");
    const foreign = await call(legacy, "POST", "/v1/orders/ord_delivered/returns", {
      body: { item_ids: ["ord_exchange_item_1"], reason: "x" },
    });
    expect(foreign.status).toBe(404);
  });

  test("a return to store credit goes back onto the balance", async () => {
    const before = (await call(legacy, "GET", "/v1/customers/cus_alice")).body.balance;
    const tee = await itemOf("ord_exchange", "prod_tee");
    await call(legacy, "POST", "/v1/orders/ord_exchange/returns", {
      body: { item_ids: [tee], reason: "fit" },
    });
    expect((await call(legacy, "GET", "/v1/customers/cus_alice")).body.balance).toBe(before + 2500);
  });
});

describe("exchange", () => {
  test("swaps an exchangeable delivered item for an in-stock product of the same price", async () => {
    const tee = await itemOf("ord_exchange", "prod_tee");
    const stock = (await call(legacy, "GET", "/v1/inventory/prod_tee_l")).body.available;
    const ex = await call(legacy, "POST", "/v1/orders/ord_exchange/exchanges", {
      body: { item_id: tee, replacement_product_id: "prod_tee_l", reason: "too small", reference: "act_ex" },
    });
    expect(ex.status).toBe(201);
    expect(ex.body).toMatchObject({
      kind: "exchange",
      amount: 0,
      reference: "act_ex",
      details: { item_id: tee, replacement_product_id: "prod_tee_l" },
    });
    expect((await call(legacy, "GET", "/v1/inventory/prod_tee_l")).body.available).toBe(stock - 1);
    const again = await call(legacy, "POST", "/v1/orders/ord_exchange/exchanges", {
      body: { item_id: tee, replacement_product_id: "prod_tee_s", reason: "x" },
    });
    expect(again.body.error.code).toBe("item_already_returned");
  });

  test("refuses non-exchangeable items, other prices, sold-out replacements and undelivered orders", async () => {
    const tee = await itemOf("ord_exchange", "prod_tee");
    const mug = await itemOf("ord_exchange", "prod_mug");
    const expectCode = async (body: Record<string, unknown>, code: string, order = "ord_exchange") => {
      const res = await call(legacy, "POST", `/v1/orders/${order}/exchanges`, {
        body: { reason: "x", ...body },
      });
      expect(res.status, code).toBe(409);
      expect(res.body.error.code).toBe(code);
    };
    await expectCode({ item_id: mug, replacement_product_id: "prod_kettle" }, "item_not_exchangeable");
    await expectCode({ item_id: tee, replacement_product_id: "prod_hoodie" }, "price_mismatch");
    await expectCode({ item_id: tee, replacement_product_id: "prod_tee_xl" }, "insufficient_stock");
    await expectCode({ item_id: tee, replacement_product_id: "prod_tee" }, "invalid_replacement");
    const transitItem = await itemOf("ord_transit", "prod_headphones");
    await expectCode(
      { item_id: transitItem, replacement_product_id: "prod_tee" },
      "order_not_delivered",
      "ord_transit",
    );
  });
});

describe("an order's lines agree with their own status", () => {
  // Issue 23: after the tee was exchanged the order still said `exchangeable: true` on it.
  test("a line exchanged or returned is no longer exchangeable; the others keep their product's policy", async () => {
    const lines = async () =>
      Object.fromEntries(
        (
          (await call(legacy, "GET", "/v1/orders/ord_exchange")).body.items as Array<Record<string, unknown>>
        ).map((i) => [i.product_id, { status: i.status, exchangeable: i.exchangeable }]),
      );
    expect(await lines()).toEqual({
      prod_tee: { status: "ok", exchangeable: true },
      prod_mug: { status: "ok", exchangeable: false },
    });
    const tee = await itemOf("ord_exchange", "prod_tee");
    const ex = await call(legacy, "POST", "/v1/orders/ord_exchange/exchanges", {
      body: { item_id: tee, replacement_product_id: "prod_tee_l", reason: "too small" },
    });
    expect(ex.status).toBe(201);
    expect((await lines()).prod_tee).toEqual({ status: "exchanged", exchangeable: false });
    // Listed the same way as read one by one.
    const listed = (await call(legacy, "GET", "/v1/orders?per_page=50")).body.data as Array<{
      id: string;
      items: Array<{ id: string; exchangeable: boolean }>;
    }>;
    expect(listed.find((o) => o.id === "ord_exchange")?.items.find((i) => i.id === tee)?.exchangeable).toBe(
      false,
    );

    await legacy.reset();
    const returned = await call(legacy, "POST", "/v1/orders/ord_exchange/returns", {
      body: { item_ids: [tee], reason: "fit" },
    });
    expect(returned.status).toBe(201);
    expect((await lines()).prod_tee).toEqual({ status: "returned", exchangeable: false });
  });
});

describe("shipping difference", () => {
  test("refunds up to the shipping difference, then refuses", async () => {
    const order = await call(legacy, "GET", "/v1/orders/ord_shipdiff");
    expect(order.body.shipping_difference).toBe(700);
    const tooMuch = await call(legacy, "POST", "/v1/orders/ord_shipdiff/shipping-refunds", {
      body: { amount: 701, reason: "x" },
    });
    expect(tooMuch.body.error.code).toBe("amount_exceeds_shipping_difference");
    const ok = await call(legacy, "POST", "/v1/orders/ord_shipdiff/shipping-refunds", {
      body: { amount: 700, reason: "shipped standard, paid express" },
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ kind: "shipping_refund", amount: 700 });
    expect((await call(legacy, "GET", "/v1/orders/ord_shipdiff")).body.shipping_difference).toBe(0);
    const none = await call(legacy, "POST", "/v1/orders/ord_shipdiff/shipping-refunds", {
      body: { amount: 1, reason: "x" },
    });
    expect(none.body.error.code).toBe("no_shipping_difference");
    const never = await call(legacy, "POST", "/v1/orders/ord_delivered/shipping-refunds", {
      body: { amount: 1, reason: "x" },
    });
    expect(never.body.error.code).toBe("no_shipping_difference");
  });
});

describe("delivery address change", () => {
  test("before payment re-prices the order", async () => {
    // Office is in the warehouse city; Home is not: same_day cannot follow, standard can.
    const res = await call(legacy, "PUT", "/v1/orders/ord_pending/address", {
      body: { address_id: "addr_alice_home" },
    });
    expect(res.status).toBe(200);
    expect(res.body.address).toMatchObject({ id: "addr_alice_home", label: "Home" });
    expect(res.body.total).toBe(res.body.subtotal - res.body.discount + res.body.shipping_price);
  });

  test("after payment it may move until shipment, only to the customer's own addresses", async () => {
    const added = await call(legacy, "POST", "/v1/customers/cus_alice/addresses", {
      body: {
        label: "Parents",
        line1: "5 Main St",
        city: "Springfield",
        postal_code: "12347",
        country: "US",
      },
    });
    expect(added.status).toBe(201);
    // ord_transit is shipped: refused. ord_paid (paid, standard) may move to a same-priced address.
    const shipped = await call(legacy, "PUT", "/v1/orders/ord_transit/address", {
      body: { address_id: added.body.id },
    });
    expect(shipped.status).toBe(409);
    expect(shipped.body.error.code).toBe("order_already_shipped");
    const moved = await call(legacy, "PUT", "/v1/orders/ord_paid/address", {
      body: { address_id: added.body.id },
    });
    expect(moved.body).toMatchObject({
      status: "paid",
      address: { id: added.body.id },
      shipping_difference: 0,
    });
    const cancelled = await call(legacy, "PUT", "/v1/orders/ord_cancelled/address", {
      body: { address_id: "addr_alice_office" },
    });
    expect(cancelled.body.error.code).toBe("order_cancelled");
    const notHers = await call(legacy, "PUT", "/v1/orders/ord_paid/address", {
      body: { address_id: "addr_adam_home" },
    });
    expect(notHers.status).toBe(404);
  });

  test("after payment a cheaper destination is owed back as shipping difference", async () => {
    // Pay an express order to an international address, then move it home: express at home is cheaper.
    const abroad = await call(legacy, "POST", "/v1/customers/cus_alice/addresses", {
      body: { label: "Holiday", line1: "1 Via Roma", city: "Rome", postal_code: "00100", country: "IT" },
    });
    const order = await call(legacy, "POST", "/v1/orders", {
      body: {
        customer_id: "cus_alice",
        items: [{ product_id: "prod_mug", quantity: 1 }],
        address_id: abroad.body.id,
        shipping_method: "express",
      },
    });
    await call(legacy, "POST", "/v1/payments", {
      body: { order_id: order.body.id, payment_method_id: "pm_alice_card", amount: order.body.total },
    });
    const moved = await call(legacy, "PUT", `/v1/orders/${order.body.id}/address`, {
      body: { address_id: "addr_alice_home" },
    });
    expect(moved.body.shipping_difference).toBe(order.body.shipping_price - order.body.shipping_price / 3);
    expect(moved.body.total).toBe(order.body.total);
  });
});
