import type Database from "better-sqlite3";
import type { z } from "zod";
import { defineRoute } from "../http/define-route";
import { LegacyError, notFound } from "../http/legacy-error";
import { requireProduct } from "./catalog-routes";
import { requireCustomer } from "./customer-routes";
import { cartItemInputSchema, cartSchema } from "./shop-schemas";

/** The customer's cart with current prices. */
export function loadCart(
  db: Database.Database,
  tenantId: string,
  customerId: string,
): z.input<typeof cartSchema> {
  const items = db
    .prepare(
      `SELECT c.product_id, p.name, c.quantity, p.price AS unit_price FROM cart_items c
       JOIN products p ON p.tenant_id = c.tenant_id AND p.id = c.product_id
       WHERE c.tenant_id = ? AND c.customer_id = ? ORDER BY c.added_at, c.product_id`,
    )
    .all(tenantId, customerId) as {
    product_id: string;
    name: string;
    quantity: number;
    unit_price: number;
  }[];
  return {
    customer_id: customerId,
    items,
    subtotal: items.reduce((sum, i) => sum + i.quantity * i.unit_price, 0),
  };
}

export const cartRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/customers/{id}/cart",
    operationId: "getCart",
    summary: "The customer's cart",
    tag: "shop",
    response: cartSchema,
    handler: ({ db, tenantId, params }) => {
      requireCustomer(db, tenantId, params.id);
      return loadCart(db, tenantId, params.id);
    },
  }),
  defineRoute({
    method: "POST",
    path: "/v1/customers/{id}/cart/items",
    operationId: "setCartItem",
    summary: "Add a product to the cart or set its quantity",
    tag: "shop",
    idempotent: true,
    body: cartItemInputSchema,
    response: cartSchema,
    errors: [{ status: 409, code: "insufficient_stock", when: "fewer units available than requested" }],
    handler: ({ db, tenantId, params, body, now }) => {
      requireCustomer(db, tenantId, params.id);
      const product = requireProduct(db, tenantId, body.product_id);
      if (product.stock < body.quantity) {
        throw new LegacyError(409, "insufficient_stock", `only ${product.stock} of ${product.id} available`, {
          product_id: product.id,
          available: product.stock,
        });
      }
      db.prepare(
        `INSERT INTO cart_items (tenant_id, customer_id, product_id, quantity, added_at) VALUES (?,?,?,?,?)
         ON CONFLICT(tenant_id, customer_id, product_id) DO UPDATE SET quantity = excluded.quantity`,
      ).run(tenantId, params.id, product.id, body.quantity, now.toISOString());
      return loadCart(db, tenantId, params.id);
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/v1/customers/{id}/cart/items/{product_id}",
    operationId: "removeCartItem",
    summary: "Remove a product from the cart",
    tag: "shop",
    response: cartSchema,
    handler: ({ db, tenantId, params }) => {
      requireCustomer(db, tenantId, params.id);
      const removed = db
        .prepare("DELETE FROM cart_items WHERE tenant_id = ? AND customer_id = ? AND product_id = ?")
        .run(tenantId, params.id, params.product_id);
      if (removed.changes === 0) throw notFound("cart_item", params.product_id);
      return loadCart(db, tenantId, params.id);
    },
  }),
];
