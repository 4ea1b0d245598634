import type Database from "better-sqlite3";
import type { z } from "zod";
import { notFound } from "../http/legacy-error";
import type { orderSchema, refundSchema } from "./shop-schemas";

export type OrderStatus = "pending_payment" | "paid" | "shipped" | "delivered" | "cancelled";
export type Order = z.input<typeof orderSchema>;
export type Refund = z.input<typeof refundSchema>;

export interface OrderRow {
  id: string;
  customer_id: string;
  status: OrderStatus;
  address_id: string;
  address_json: string;
  shipping_method: "standard" | "express" | "same_day";
  shipping_price: number;
  subtotal: number;
  discount: number;
  coupon_code: string | null;
  total: number;
  shipping_difference: number;
  reference: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
  /** 1 when the order is the customer's cart checked out: paying it takes its items off the cart. */
  from_cart: 0 | 1;
}

/** Returns and exchanges are accepted this long after delivery (the shop's policy). */
export const returnWindowDays = 30;

/** When returns and exchanges close for an order delivered at `deliveredAt` (null until delivered). */
export function returnsUntil(deliveredAt: string | null): string | null {
  return deliveredAt ? new Date(Date.parse(deliveredAt) + returnWindowDays * 86_400_000).toISOString() : null;
}

export interface OrderItemRow {
  id: string;
  product_id: string;
  name: string;
  quantity: number;
  unit_price: number;
  exchangeable: number;
  status: "ok" | "returned" | "exchanged";
}

interface RefundRow {
  id: string;
  order_id: string;
  kind: Refund["kind"];
  amount: number;
  status: "succeeded";
  reason: string;
  reference: string | null;
  details_json: string;
  created_at: string;
}

export const refundSelect =
  "SELECT id, order_id, kind, amount, status, reason, reference, details_json, created_at FROM refunds";

export function toRefund(row: RefundRow): Refund {
  const { details_json, ...rest } = row;
  return { ...rest, details: JSON.parse(details_json) as Record<string, unknown> };
}

/** The order row of the tenant, or 404. */
export function requireOrderRow(db: Database.Database, tenantId: string, id: string): OrderRow {
  const row = db.prepare("SELECT * FROM orders WHERE tenant_id = ? AND id = ?").get(tenantId, id) as
    | OrderRow
    | undefined;
  if (!row) throw notFound("order", id);
  return row;
}

export function orderItems(db: Database.Database, tenantId: string, orderId: string): OrderItemRow[] {
  return db
    .prepare(
      "SELECT id, product_id, name, quantity, unit_price, exchangeable, status FROM order_items WHERE tenant_id = ? AND order_id = ? ORDER BY position",
    )
    .all(tenantId, orderId) as OrderItemRow[];
}

/** Everything refunded on an order so far (all kinds; exchanges are 0). */
export function refundedAmount(db: Database.Database, tenantId: string, orderId: string): number {
  const row = db
    .prepare("SELECT COALESCE(SUM(amount), 0) AS n FROM refunds WHERE tenant_id = ? AND order_id = ?")
    .get(tenantId, orderId) as { n: number };
  return row.n;
}

export interface OrderPaymentRow {
  id: string;
  payment_method_id: string;
  status: string;
  amount: number;
  method: "balance" | "card";
  created_at: string;
}

export function orderPayment(
  db: Database.Database,
  tenantId: string,
  orderId: string,
): OrderPaymentRow | undefined {
  return db
    .prepare(
      "SELECT id, payment_method_id, status, amount, method, created_at FROM payments WHERE tenant_id = ? AND order_id = ? AND status = 'succeeded' ORDER BY created_at DESC, rowid DESC LIMIT 1",
    )
    .get(tenantId, orderId) as OrderPaymentRow | undefined;
}

export function touchOrder(db: Database.Database, tenantId: string, orderId: string, now: Date): void {
  db.prepare("UPDATE orders SET updated_at = ? WHERE tenant_id = ? AND id = ?").run(
    now.toISOString(),
    tenantId,
    orderId,
  );
}

/** The order as GET /v1/orders/{id} answers it. */
export function loadOrderView(db: Database.Database, tenantId: string, id: string): Order {
  const row = requireOrderRow(db, tenantId, id);
  const payment = orderPayment(db, tenantId, id);
  const shipped = db
    .prepare(
      "SELECT id, carrier, tracking_number, status, created_at FROM shipments WHERE tenant_id = ? AND order_id = ?",
    )
    .get(tenantId, id) as
    | { id: string; carrier: string; tracking_number: string; status: string; created_at: string }
    | undefined;
  const { created_at: shippedAt = null, ...shipment } = shipped ?? {};
  const refunds = (
    db
      .prepare(`${refundSelect} WHERE tenant_id = ? AND order_id = ? ORDER BY created_at, rowid`)
      .all(tenantId, id) as RefundRow[]
  ).map(toRefund);
  const refunded = refunds.reduce((sum, r) => sum + r.amount, 0);
  return {
    id: row.id,
    customer_id: row.customer_id,
    status: row.status,
    // A line already returned or exchanged cannot be exchanged (again): the row's flag is the
    // product's policy when ordered, so alone it said `exchangeable: true` on an exchanged line.
    items: orderItems(db, tenantId, id).map((i) => ({
      ...i,
      exchangeable: i.exchangeable === 1 && i.status === "ok",
    })),
    subtotal: row.subtotal,
    shipping_method: row.shipping_method,
    shipping_price: row.shipping_price,
    discount: row.discount,
    coupon_code: row.coupon_code,
    total: row.total,
    address: JSON.parse(row.address_json) as Order["address"],
    payment: payment
      ? { id: payment.id, status: payment.status, amount: payment.amount, method: payment.method }
      : null,
    shipment: shipped ? (shipment as NonNullable<Order["shipment"]>) : null,
    shipping_difference: row.shipping_difference,
    refunded,
    refundable: payment ? Math.max(0, row.total - refunded) : 0,
    refunds,
    reference: row.reference,
    created_at: row.created_at,
    updated_at: row.updated_at,
    // When each event happened, from the payment's and the shipment's own records.
    paid_at: payment?.created_at ?? null,
    shipped_at: shippedAt,
    delivered_at: row.delivered_at,
    returns_until: returnsUntil(row.delivered_at),
  };
}
