import { randomInt } from "node:crypto";
import type Database from "better-sqlite3";
import { z } from "zod";
import { defineRoute } from "../http/define-route";
import { ruleViolation } from "../http/legacy-error";
import { newId } from "../store/new-id";
import { loadOrderView, orderItems, requireOrderRow } from "./order-view";
import { warehouseCity } from "./quote-shipping";
import { orderSchema, trackingSchema } from "./shop-schemas";

interface ShipmentRow {
  id: string;
  carrier: string;
  tracking_number: string;
  status: string;
}

function shipmentOf(db: Database.Database, tenantId: string, orderId: string): ShipmentRow | undefined {
  return db
    .prepare(
      "SELECT id, carrier, tracking_number, status FROM shipments WHERE tenant_id = ? AND order_id = ?",
    )
    .get(tenantId, orderId) as ShipmentRow | undefined;
}

function addEvent(
  db: Database.Database,
  tenantId: string,
  shipmentId: string,
  at: Date,
  location: string,
  description: string,
) {
  const next = db
    .prepare(
      "SELECT COALESCE(MAX(seq), -1) + 1 AS seq FROM tracking_events WHERE tenant_id = ? AND shipment_id = ?",
    )
    .get(tenantId, shipmentId) as { seq: number };
  db.prepare(
    "INSERT INTO tracking_events (tenant_id, shipment_id, seq, at, location, description) VALUES (?,?,?,?,?,?)",
  ).run(tenantId, shipmentId, next.seq, at.toISOString(), location, description);
}

export const fulfilmentRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/orders/{id}/tracking",
    operationId: "getTracking",
    summary: "Carrier tracking of a shipped order",
    tag: "shop",
    response: trackingSchema,
    errors: [{ status: 409, code: "not_shipped", when: "the order has no shipment yet" }],
    handler: ({ db, tenantId, params }) => {
      const order = requireOrderRow(db, tenantId, params.id);
      const shipment = shipmentOf(db, tenantId, order.id);
      if (!shipment)
        throw ruleViolation("not_shipped", `order ${order.id} is ${order.status}; nothing shipped yet`);
      const events = db
        .prepare(
          "SELECT at, location, description FROM tracking_events WHERE tenant_id = ? AND shipment_id = ? ORDER BY seq",
        )
        .all(tenantId, shipment.id) as { at: string; location: string; description: string }[];
      return {
        order_id: order.id,
        carrier: shipment.carrier,
        tracking_number: shipment.tracking_number,
        status: shipment.status,
        events,
      };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/v1/orders/{id}/ship",
    operationId: "shipOrder",
    summary: "Warehouse operation: hand a paid order to the carrier",
    tag: "shop",
    idempotent: true,
    body: z.strictObject({ carrier: z.string().min(1).max(40).optional() }).optional(),
    response: orderSchema,
    errors: [
      { status: 409, code: "order_not_paid", when: "the order is pending_payment" },
      { status: 409, code: "order_already_shipped", when: "the order is shipped or delivered" },
      { status: 409, code: "order_cancelled", when: "the order is cancelled" },
    ],
    handler: ({ db, tenantId, params, body, now }) => {
      const order = requireOrderRow(db, tenantId, params.id);
      if (order.status !== "paid") {
        const code =
          order.status === "pending_payment"
            ? "order_not_paid"
            : order.status === "cancelled"
              ? "order_cancelled"
              : "order_already_shipped";
        throw ruleViolation(code, `order ${order.id} is ${order.status}; only paid orders ship`, {
          status: order.status,
        });
      }
      const shipmentId = newId("shp");
      db.prepare(
        "INSERT INTO shipments (tenant_id, id, order_id, carrier, tracking_number, status, created_at) VALUES (?,?,?,?,?,'in_transit',?)",
      ).run(
        tenantId,
        shipmentId,
        order.id,
        body?.carrier ?? "UPS",
        `1Z${randomInt(1e9, 1e10 - 1)}`,
        now.toISOString(),
      );
      addEvent(
        db,
        tenantId,
        shipmentId,
        now,
        `${warehouseCity} warehouse`,
        "Label created, parcel handed to carrier",
      );
      const ship = db.prepare(
        "UPDATE inventory SET reserved = MAX(0, reserved - ?) WHERE tenant_id = ? AND product_id = ?",
      );
      for (const item of orderItems(db, tenantId, order.id))
        ship.run(item.quantity, tenantId, item.product_id);
      db.prepare("UPDATE orders SET status = 'shipped', updated_at = ? WHERE tenant_id = ? AND id = ?").run(
        now.toISOString(),
        tenantId,
        order.id,
      );
      return loadOrderView(db, tenantId, order.id);
    },
  }),
  defineRoute({
    method: "POST",
    path: "/v1/orders/{id}/deliver",
    operationId: "deliverOrder",
    summary: "Carrier operation: mark a shipped order delivered",
    tag: "shop",
    idempotent: true,
    response: orderSchema,
    errors: [{ status: 409, code: "not_shipped", when: "the order is not in transit" }],
    handler: ({ db, tenantId, params, now }) => {
      const order = requireOrderRow(db, tenantId, params.id);
      const shipment = shipmentOf(db, tenantId, order.id);
      if (order.status !== "shipped" || !shipment) {
        throw ruleViolation("not_shipped", `order ${order.id} is ${order.status}, not in transit`, {
          status: order.status,
        });
      }
      const city = (JSON.parse(order.address_json) as { city: string }).city;
      addEvent(db, tenantId, shipment.id, now, city, "Delivered");
      db.prepare("UPDATE shipments SET status = 'delivered' WHERE tenant_id = ? AND id = ?").run(
        tenantId,
        shipment.id,
      );
      db.prepare(
        "UPDATE orders SET status = 'delivered', delivered_at = ?, updated_at = ? WHERE tenant_id = ? AND id = ?",
      ).run(now.toISOString(), now.toISOString(), tenantId, order.id);
      return loadOrderView(db, tenantId, order.id);
    },
  }),
];
