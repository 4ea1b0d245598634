import type Database from "better-sqlite3";
import { z } from "zod";
import { defineRoute } from "../http/define-route";
import { ruleViolation } from "../http/legacy-error";
import { listOf, pageQueryShape, paginate } from "../http/paginate";
import { newId } from "../store/new-id";
import { couponEligibility } from "./coupon-eligibility";
import { findCoupon } from "./coupon-routes";
import { requireAddress, requireCustomer } from "./customer-routes";
import { issueRefund } from "./issue-refund";
import { loadOrderView, orderItems, orderPayment, refundedAmount, requireOrderRow } from "./order-view";
import { priceItems } from "./price-items";
import { quoteShipping } from "./quote-shipping";
import {
  itemsInputSchema,
  orderSchema,
  orderStatusSchema,
  paymentTypeSchema,
  referenceField,
  shippingMethodSchema,
} from "./shop-schemas";

function releaseStock(db: Database.Database, tenantId: string, orderId: string): void {
  const release = db.prepare(
    "UPDATE inventory SET available = available + ?, reserved = MAX(0, reserved - ?) WHERE tenant_id = ? AND product_id = ?",
  );
  for (const item of orderItems(db, tenantId, orderId))
    release.run(item.quantity, item.quantity, tenantId, item.product_id);
}

function addressSnapshot(a: {
  id: string;
  label: string;
  line1: string;
  city: string;
  postal_code: string;
  country: string;
}) {
  return JSON.stringify({
    id: a.id,
    label: a.label,
    line1: a.line1,
    city: a.city,
    postal_code: a.postal_code,
    country: a.country,
  });
}

const shippedCodeFor = (status: string) =>
  status === "cancelled" ? "order_cancelled" : "order_already_shipped";

export const orderRoutes = [
  defineRoute({
    method: "POST",
    path: "/v1/orders",
    operationId: "createOrder",
    summary: "Place an order (pending_payment); reserves stock",
    tag: "shop",
    idempotent: true,
    body: z.strictObject({
      customer_id: z.string().min(1),
      items: itemsInputSchema,
      address_id: z.string().min(1),
      shipping_method: shippingMethodSchema,
      coupon_code: z.string().min(1).optional(),
      from_cart: z
        .boolean()
        .optional()
        .describe(
          "true when these items are the customer's cart being checked out: paying the order then takes them off the cart. Otherwise the cart is left as it is",
        ),
      reference: referenceField,
    }),
    response: orderSchema,
    status: 201,
    errors: [
      { status: 409, code: "insufficient_stock", when: "an item has fewer units available than ordered" },
      {
        status: 409,
        code: "shipping_method_unavailable",
        when: "the method is not offered for these items to this address",
      },
      { status: 409, code: "coupon_invalid", when: "no such coupon" },
      { status: 409, code: "coupon_not_eligible", when: "the subtotal is below the coupon's minimum" },
    ],
    handler: ({ db, tenantId, body, now }) => {
      requireCustomer(db, tenantId, body.customer_id);
      const address = requireAddress(db, tenantId, body.customer_id, body.address_id);
      const priced = priceItems(db, tenantId, body.items);
      for (const line of priced.lines) {
        if (line.stock < line.quantity) {
          throw ruleViolation("insufficient_stock", `only ${line.stock} of ${line.product_id} available`, {
            product_id: line.product_id,
            available: line.stock,
            requested: line.quantity,
          });
        }
      }
      const quotes = quoteShipping(priced.weightGrams, address);
      const quote = quotes.find((q) => q.method === body.shipping_method);
      if (!quote) {
        throw ruleViolation(
          "shipping_method_unavailable",
          `${body.shipping_method} is not available to ${address.city}`,
          {
            available: quotes.map((q) => q.method),
          },
        );
      }
      let discount = 0;
      let couponCode: string | null = null;
      if (body.coupon_code) {
        const coupon = findCoupon(db, tenantId, body.coupon_code);
        if (!coupon) throw ruleViolation("coupon_invalid", `coupon ${body.coupon_code} does not exist`);
        const eligibility = couponEligibility(coupon, priced.subtotal);
        if (!eligibility.eligible) {
          throw ruleViolation("coupon_not_eligible", eligibility.reason ?? "coupon not eligible", {
            min_subtotal: coupon.min_subtotal,
            subtotal: priced.subtotal,
          });
        }
        discount = Math.min(coupon.discount, priced.subtotal);
        couponCode = coupon.code;
      }
      const id = newId("ord");
      const at = now.toISOString();
      db.prepare(
        `INSERT INTO orders (tenant_id, id, customer_id, status, address_id, address_json, shipping_method, shipping_price,
          subtotal, discount, coupon_code, total, shipping_difference, reference, created_at, updated_at, delivered_at, from_cart)
         VALUES (?,?,?,'pending_payment',?,?,?,?,?,?,?,?,0,?,?,?,NULL,?)`,
      ).run(
        tenantId,
        id,
        body.customer_id,
        address.id,
        addressSnapshot(address),
        quote.method,
        quote.price,
        priced.subtotal,
        discount,
        couponCode,
        priced.subtotal - discount + quote.price,
        body.reference ?? null,
        at,
        at,
        body.from_cart ? 1 : 0,
      );
      const insertItem = db.prepare(
        "INSERT INTO order_items (tenant_id, id, order_id, product_id, name, quantity, unit_price, exchangeable, position) VALUES (?,?,?,?,?,?,?,?,?)",
      );
      const reserve = db.prepare(
        "UPDATE inventory SET available = available - ?, reserved = reserved + ? WHERE tenant_id = ? AND product_id = ?",
      );
      priced.lines.forEach((line, position) => {
        insertItem.run(
          tenantId,
          newId("oi"),
          id,
          line.product_id,
          line.name,
          line.quantity,
          line.unit_price,
          line.exchangeable ? 1 : 0,
          position,
        );
        reserve.run(line.quantity, line.quantity, tenantId, line.product_id);
      });
      return loadOrderView(db, tenantId, id);
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/orders",
    operationId: "listOrders",
    summary: "Orders, newest first",
    tag: "shop",
    query: z.object({
      customer_id: z.string().optional(),
      status: orderStatusSchema.optional(),
      payment_method: paymentTypeSchema
        .optional()
        .describe("how the order was paid: balance (store credit) or card; unpaid orders match neither"),
      reference: z.string().optional().describe("the reference given when the order was created"),
      ...pageQueryShape,
    }),
    response: listOf(orderSchema),
    handler: ({ db, tenantId, query }) => {
      const where = ["tenant_id = ?"];
      const args: string[] = [tenantId];
      if (query.customer_id) {
        where.push("customer_id = ?");
        args.push(query.customer_id);
      }
      if (query.status) {
        where.push("status = ?");
        args.push(query.status);
      }
      if (query.payment_method) {
        // The payment that paid it (an order takes one: paid, it is no longer payable).
        where.push(
          "EXISTS (SELECT 1 FROM payments p WHERE p.tenant_id = orders.tenant_id AND p.order_id = orders.id AND p.status = 'succeeded' AND p.method = ?)",
        );
        args.push(query.payment_method);
      }
      if (query.reference) {
        where.push("reference = ?");
        args.push(query.reference);
      }
      const ids = db
        .prepare(`SELECT id FROM orders WHERE ${where.join(" AND ")} ORDER BY created_at DESC, rowid DESC`)
        .all(...args) as { id: string }[];
      const page = paginate(ids, query);
      return { ...page, data: page.data.map((r) => loadOrderView(db, tenantId, r.id)) };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/orders/{id}",
    operationId: "getOrder",
    summary: "One order with items, payment, shipment and refunds",
    tag: "shop",
    response: orderSchema,
    handler: ({ db, tenantId, params }) => loadOrderView(db, tenantId, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/orders/{id}/cancel",
    operationId: "cancelOrder",
    summary: "Cancel an order that has not shipped; a paid order is refunded in full",
    tag: "shop",
    idempotent: true,
    body: z.strictObject({ reason: z.string().max(500).optional(), reference: referenceField }).optional(),
    response: orderSchema,
    errors: [
      { status: 409, code: "order_already_shipped", when: "the order is shipped or delivered" },
      { status: 409, code: "order_cancelled", when: "the order is already cancelled" },
    ],
    handler: ({ db, tenantId, params, body, now }) => {
      const order = requireOrderRow(db, tenantId, params.id);
      if (order.status !== "pending_payment" && order.status !== "paid") {
        throw ruleViolation(
          shippedCodeFor(order.status),
          `order ${order.id} is ${order.status} and cannot be cancelled`,
          {
            status: order.status,
          },
        );
      }
      if (order.status === "paid" && orderPayment(db, tenantId, order.id)) {
        const remaining = order.total - refundedAmount(db, tenantId, order.id);
        if (remaining > 0) {
          issueRefund(
            db,
            tenantId,
            order,
            {
              kind: "cancellation",
              amount: remaining,
              reason: body?.reason ?? "order cancelled",
              reference: body?.reference,
            },
            now,
          );
        }
      }
      releaseStock(db, tenantId, order.id);
      db.prepare("UPDATE orders SET status = 'cancelled', updated_at = ? WHERE tenant_id = ? AND id = ?").run(
        now.toISOString(),
        tenantId,
        order.id,
      );
      return loadOrderView(db, tenantId, order.id);
    },
  }),
  defineRoute({
    method: "PUT",
    path: "/v1/orders/{id}/address",
    operationId: "changeOrderAddress",
    summary: "Change the delivery address before shipment",
    description:
      "Shipping is re-priced for the new address with the same method. Before payment the total changes; after payment a cheaper shipping price becomes shipping_difference (refundable), a dearer one is absorbed by the shop.",
    tag: "shop",
    idempotent: true,
    body: z.strictObject({ address_id: z.string().min(1) }),
    response: orderSchema,
    errors: [
      { status: 409, code: "order_already_shipped", when: "the order is shipped or delivered" },
      { status: 409, code: "order_cancelled", when: "the order is cancelled" },
      {
        status: 409,
        code: "shipping_method_unavailable",
        when: "the order's method does not reach the new address",
      },
    ],
    handler: ({ db, tenantId, params, body, now }) => {
      const order = requireOrderRow(db, tenantId, params.id);
      if (order.status !== "pending_payment" && order.status !== "paid") {
        throw ruleViolation(
          shippedCodeFor(order.status),
          `order ${order.id} is ${order.status}; the address can no longer change`,
          {
            status: order.status,
          },
        );
      }
      const address = requireAddress(db, tenantId, order.customer_id, body.address_id);
      const weight = orderItems(db, tenantId, order.id).reduce((sum, item) => {
        const p = db
          .prepare("SELECT weight_grams FROM products WHERE tenant_id = ? AND id = ?")
          .get(tenantId, item.product_id) as { weight_grams: number } | undefined;
        return sum + (p?.weight_grams ?? 0) * item.quantity;
      }, 0);
      const quotes = quoteShipping(weight, address);
      const quote = quotes.find((q) => q.method === order.shipping_method);
      if (!quote) {
        throw ruleViolation(
          "shipping_method_unavailable",
          `${order.shipping_method} is not available to ${address.city}`,
          {
            available: quotes.map((q) => q.method),
          },
        );
      }
      if (order.status === "pending_payment") {
        db.prepare(
          "UPDATE orders SET address_id = ?, address_json = ?, shipping_price = ?, total = subtotal - discount + ?, updated_at = ? WHERE tenant_id = ? AND id = ?",
        ).run(
          address.id,
          addressSnapshot(address),
          quote.price,
          quote.price,
          now.toISOString(),
          tenantId,
          order.id,
        );
      } else {
        // Paid shipping stays what it was; what the new route costs less is owed back (minus what was refunded).
        const shippingRefunded = (
          db
            .prepare(
              "SELECT COALESCE(SUM(amount), 0) AS n FROM refunds WHERE tenant_id = ? AND order_id = ? AND kind = 'shipping_refund'",
            )
            .get(tenantId, order.id) as { n: number }
        ).n;
        const owed = Math.max(0, order.shipping_price - quote.price - shippingRefunded);
        db.prepare(
          "UPDATE orders SET address_id = ?, address_json = ?, shipping_difference = ?, updated_at = ? WHERE tenant_id = ? AND id = ?",
        ).run(address.id, addressSnapshot(address), owed, now.toISOString(), tenantId, order.id);
      }
      return loadOrderView(db, tenantId, order.id);
    },
  }),
];
