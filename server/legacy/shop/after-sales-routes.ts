import type Database from "better-sqlite3";
import { z } from "zod";
import { defineRoute } from "../http/define-route";
import { notFound, ruleViolation } from "../http/legacy-error";
import { listOf, pageQueryShape, paginate } from "../http/paginate";
import { requireProduct } from "./catalog-routes";
import { issueRefund } from "./issue-refund";
import {
  type OrderRow,
  orderItems,
  orderPayment,
  refundedAmount,
  refundSelect,
  requireOrderRow,
  returnWindowDays,
  toRefund,
} from "./order-view";
import { referenceField, refundKindSchema, refundSchema } from "./shop-schemas";

const reasonField = z.string().min(1).max(1000);

function requireDeliveredWithinWindow(order: OrderRow, now: Date): void {
  if (order.status !== "delivered" || !order.delivered_at) {
    throw ruleViolation(
      "order_not_delivered",
      `order ${order.id} is ${order.status}; only delivered orders qualify`,
      {
        status: order.status,
      },
    );
  }
  const days = (now.getTime() - Date.parse(order.delivered_at)) / 86_400_000;
  if (days > returnWindowDays) {
    throw ruleViolation(
      "return_window_closed",
      `order ${order.id} was delivered ${Math.floor(days)} days ago; the window is ${returnWindowDays} days`,
      { delivered_at: order.delivered_at, window_days: returnWindowDays },
    );
  }
}

function refundableOf(db: Database.Database, tenantId: string, order: OrderRow): number {
  return orderPayment(db, tenantId, order.id)
    ? Math.max(0, order.total - refundedAmount(db, tenantId, order.id))
    : 0;
}

export const afterSalesRoutes = [
  defineRoute({
    method: "POST",
    path: "/v1/orders/{id}/refunds",
    operationId: "refundOrder",
    summary: "Refund only (no return): for paid orders that have not shipped",
    description: "A refund that leaves nothing refundable cancels the order and releases its stock.",
    tag: "shop",
    idempotent: true,
    body: z.strictObject({ amount: z.number().int().min(1), reason: reasonField, reference: referenceField }),
    response: refundSchema,
    status: 201,
    errors: [
      { status: 409, code: "order_already_shipped", when: "the order is shipped or delivered (use returns)" },
      { status: 409, code: "order_not_paid", when: "the order is pending_payment" },
      { status: 409, code: "order_cancelled", when: "the order is cancelled" },
      { status: 409, code: "amount_exceeds_refundable", when: "amount is above what is left to refund" },
    ],
    handler: ({ db, tenantId, params, body, now }) => {
      const order = requireOrderRow(db, tenantId, params.id);
      if (order.status === "shipped" || order.status === "delivered") {
        throw ruleViolation(
          "order_already_shipped",
          `order ${order.id} is ${order.status}; refund-only needs an order not yet shipped`,
          {
            status: order.status,
          },
        );
      }
      if (order.status === "pending_payment")
        throw ruleViolation("order_not_paid", `order ${order.id} is not paid`);
      if (order.status === "cancelled")
        throw ruleViolation("order_cancelled", `order ${order.id} is cancelled`);
      const refundable = refundableOf(db, tenantId, order);
      if (body.amount > refundable) {
        throw ruleViolation("amount_exceeds_refundable", `at most ${refundable} can be refunded`, {
          refundable,
        });
      }
      const refund = issueRefund(
        db,
        tenantId,
        order,
        { kind: "refund", amount: body.amount, reason: body.reason, reference: body.reference },
        now,
      );
      if (body.amount === refundable) {
        const release = db.prepare(
          "UPDATE inventory SET available = available + ?, reserved = MAX(0, reserved - ?) WHERE tenant_id = ? AND product_id = ?",
        );
        for (const item of orderItems(db, tenantId, order.id))
          release.run(item.quantity, item.quantity, tenantId, item.product_id);
        db.prepare(
          "UPDATE orders SET status = 'cancelled', updated_at = ? WHERE tenant_id = ? AND id = ?",
        ).run(now.toISOString(), tenantId, order.id);
      }
      return refund;
    },
  }),
  defineRoute({
    method: "POST",
    path: "/v1/orders/{id}/returns",
    operationId: "returnItems",
    summary: "Return and refund delivered items (within 30 days of delivery)",
    description:
      "Refunds each returned line at its price less its share of the order discount (capped at what is left to refund); the items go back to stock.",
    tag: "shop",
    idempotent: true,
    body: z.strictObject({
      item_ids: z.array(z.string().min(1)).min(1).max(50),
      reason: reasonField,
      evidence: z.array(z.string().min(1).max(2000)).max(10).optional().describe("photo URLs or notes"),
      reference: referenceField,
    }),
    response: refundSchema,
    status: 201,
    errors: [
      { status: 409, code: "order_not_delivered", when: "the order is not delivered" },
      { status: 409, code: "return_window_closed", when: "delivered more than 30 days ago" },
      { status: 409, code: "item_already_returned", when: "an item was already returned or exchanged" },
    ],
    handler: ({ db, tenantId, params, body, now }) => {
      const order = requireOrderRow(db, tenantId, params.id);
      requireDeliveredWithinWindow(order, now);
      const items = orderItems(db, tenantId, order.id);
      const chosen = [...new Set(body.item_ids)].map((id) => {
        const item = items.find((i) => i.id === id);
        if (!item) throw notFound("order_item", id);
        if (item.status !== "ok") {
          throw ruleViolation("item_already_returned", `item ${id} was already ${item.status}`, {
            item_id: id,
            status: item.status,
          });
        }
        return item;
      });
      const lines = chosen.reduce((sum, i) => sum + i.quantity * i.unit_price, 0);
      const discountShare = order.subtotal > 0 ? Math.round((order.discount * lines) / order.subtotal) : 0;
      const amount = Math.min(lines - discountShare, refundableOf(db, tenantId, order));
      const markReturned = db.prepare(
        "UPDATE order_items SET status = 'returned' WHERE tenant_id = ? AND id = ?",
      );
      const restock = db.prepare(
        "UPDATE inventory SET available = available + ? WHERE tenant_id = ? AND product_id = ?",
      );
      for (const item of chosen) {
        markReturned.run(tenantId, item.id);
        restock.run(item.quantity, tenantId, item.product_id);
      }
      return issueRefund(
        db,
        tenantId,
        order,
        {
          kind: "return",
          amount,
          reason: body.reason,
          reference: body.reference,
          details: { item_ids: chosen.map((i) => i.id), evidence: body.evidence ?? [] },
        },
        now,
      );
    },
  }),
  defineRoute({
    method: "POST",
    path: "/v1/orders/{id}/exchanges",
    operationId: "exchangeItem",
    summary: "Exchange a delivered, exchangeable item for another product of the same price",
    tag: "shop",
    idempotent: true,
    body: z.strictObject({
      item_id: z.string().min(1),
      replacement_product_id: z.string().min(1),
      reason: reasonField,
      reference: referenceField,
    }),
    response: refundSchema,
    status: 201,
    errors: [
      { status: 409, code: "order_not_delivered", when: "the order is not delivered" },
      { status: 409, code: "return_window_closed", when: "delivered more than 30 days ago" },
      {
        status: 409,
        code: "item_not_exchangeable",
        when: "the item (or the replacement) is not exchangeable",
      },
      { status: 409, code: "item_already_returned", when: "the item was already returned or exchanged" },
      { status: 409, code: "invalid_replacement", when: "the replacement is the same product" },
      { status: 409, code: "price_mismatch", when: "the replacement costs a different price" },
      { status: 409, code: "insufficient_stock", when: "the replacement is out of stock" },
    ],
    handler: ({ db, tenantId, params, body, now }) => {
      const order = requireOrderRow(db, tenantId, params.id);
      requireDeliveredWithinWindow(order, now);
      const item = orderItems(db, tenantId, order.id).find((i) => i.id === body.item_id);
      if (!item) throw notFound("order_item", body.item_id);
      if (item.status !== "ok") {
        throw ruleViolation("item_already_returned", `item ${item.id} was already ${item.status}`, {
          item_id: item.id,
        });
      }
      if (item.exchangeable !== 1) {
        throw ruleViolation("item_not_exchangeable", `${item.name} cannot be exchanged`, {
          item_id: item.id,
        });
      }
      const replacement = requireProduct(db, tenantId, body.replacement_product_id);
      if (replacement.id === item.product_id) {
        throw ruleViolation("invalid_replacement", "the replacement must be a different product");
      }
      if (!replacement.exchangeable) {
        throw ruleViolation("item_not_exchangeable", `${replacement.name} is not offered as an exchange`, {
          replacement_product_id: replacement.id,
        });
      }
      if (replacement.price !== item.unit_price) {
        throw ruleViolation(
          "price_mismatch",
          `${replacement.name} costs ${replacement.price}, the item cost ${item.unit_price}`,
          {
            item_price: item.unit_price,
            replacement_price: replacement.price,
          },
        );
      }
      if (replacement.stock < item.quantity) {
        throw ruleViolation("insufficient_stock", `${replacement.name} is out of stock`, {
          product_id: replacement.id,
          available: replacement.stock,
        });
      }
      db.prepare("UPDATE order_items SET status = 'exchanged' WHERE tenant_id = ? AND id = ?").run(
        tenantId,
        item.id,
      );
      db.prepare("UPDATE inventory SET available = available - ? WHERE tenant_id = ? AND product_id = ?").run(
        item.quantity,
        tenantId,
        replacement.id,
      );
      db.prepare("UPDATE inventory SET available = available + ? WHERE tenant_id = ? AND product_id = ?").run(
        item.quantity,
        tenantId,
        item.product_id,
      );
      return issueRefund(
        db,
        tenantId,
        order,
        {
          kind: "exchange",
          amount: 0,
          reason: body.reason,
          reference: body.reference,
          details: {
            item_id: item.id,
            product_id: item.product_id,
            replacement_product_id: replacement.id,
            quantity: item.quantity,
          },
        },
        now,
      );
    },
  }),
  defineRoute({
    method: "POST",
    path: "/v1/orders/{id}/shipping-refunds",
    operationId: "refundShippingDifference",
    summary: "Refund shipping paid but not used (shipping_difference)",
    tag: "shop",
    idempotent: true,
    body: z.strictObject({ amount: z.number().int().min(1), reason: reasonField, reference: referenceField }),
    response: refundSchema,
    status: 201,
    errors: [
      { status: 409, code: "no_shipping_difference", when: "the order has no shipping difference left" },
      {
        status: 409,
        code: "amount_exceeds_shipping_difference",
        when: "amount is above the shipping difference",
      },
    ],
    handler: ({ db, tenantId, params, body, now }) => {
      const order = requireOrderRow(db, tenantId, params.id);
      if (order.shipping_difference <= 0 || !orderPayment(db, tenantId, order.id)) {
        throw ruleViolation(
          "no_shipping_difference",
          `order ${order.id} has no shipping difference to refund`,
        );
      }
      if (body.amount > order.shipping_difference) {
        throw ruleViolation(
          "amount_exceeds_shipping_difference",
          `at most ${order.shipping_difference} shipping can be refunded`,
          { shipping_difference: order.shipping_difference },
        );
      }
      db.prepare(
        "UPDATE orders SET shipping_difference = shipping_difference - ? WHERE tenant_id = ? AND id = ?",
      ).run(body.amount, tenantId, order.id);
      return issueRefund(
        db,
        tenantId,
        order,
        { kind: "shipping_refund", amount: body.amount, reason: body.reason, reference: body.reference },
        now,
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/refunds",
    operationId: "listRefunds",
    summary: "Refunds, returns, exchanges and shipping refunds (verify one by the caller's reference)",
    tag: "shop",
    query: z.object({
      reference: z.string().optional(),
      order_id: z.string().optional(),
      kind: refundKindSchema.optional(),
      ...pageQueryShape,
    }),
    response: listOf(refundSchema),
    handler: ({ db, tenantId, query }) => {
      const where = ["tenant_id = ?"];
      const args: string[] = [tenantId];
      for (const field of ["reference", "order_id", "kind"] as const) {
        const value = query[field];
        if (value) {
          where.push(`${field} = ?`);
          args.push(value);
        }
      }
      const rows = db
        .prepare(`${refundSelect} WHERE ${where.join(" AND ")} ORDER BY created_at DESC, rowid DESC`)
        .all(...args) as Parameters<typeof toRefund>[0][];
      return paginate(rows.map(toRefund), query);
    },
  }),
];
