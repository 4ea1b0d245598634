import type Database from "better-sqlite3";
import { z } from "zod";
import { defineRoute } from "../http/define-route";
import { notFound } from "../http/legacy-error";
import { listOf, pageQueryShape, paginate } from "../http/paginate";
import { inventorySchema, productSchema } from "./shop-schemas";

interface ProductRow {
  id: string;
  sku: string;
  name: string;
  description: string;
  price: number;
  weight_grams: number;
  exchangeable: number;
  available: number;
}

const productSelect = `SELECT p.id, p.sku, p.name, p.description, p.price, p.weight_grams, p.exchangeable, i.available
  FROM products p JOIN inventory i ON i.tenant_id = p.tenant_id AND i.product_id = p.id`;

function toProduct(row: ProductRow): z.input<typeof productSchema> {
  return {
    id: row.id,
    sku: row.sku,
    name: row.name,
    description: row.description,
    price: row.price,
    currency: "USD",
    stock: row.available,
    weight_grams: row.weight_grams,
    exchangeable: row.exchangeable === 1,
  };
}

/** A product of the tenant, or 404. */
export function requireProduct(
  db: Database.Database,
  tenantId: string,
  id: string,
): z.input<typeof productSchema> {
  const row = db.prepare(`${productSelect} WHERE p.tenant_id = ? AND p.id = ?`).get(tenantId, id) as
    | ProductRow
    | undefined;
  if (!row) throw notFound("product", id);
  return toProduct(row);
}

/** The catalog's orders: a field, `-` in front for the highest first (as tickets' `sort`). */
const PRODUCT_SORTS = ["name", "price", "-price"] as const;
const PRODUCT_ORDER: Record<(typeof PRODUCT_SORTS)[number], string> = {
  name: "p.name ASC",
  price: "p.price ASC",
  "-price": "p.price DESC",
};

export const catalogRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/products",
    operationId: "listProducts",
    summary: "Search the catalog",
    tag: "shop",
    query: z.object({
      q: z.string().optional().describe("matches name, description or SKU"),
      sort: z
        .enum(PRODUCT_SORTS)
        .default("name")
        .describe("name: by name (default); price: cheapest first; -price: most expensive first"),
      ...pageQueryShape,
    }),
    response: listOf(productSchema),
    handler: ({ db, tenantId, query }) => {
      const like = `%${(query.q ?? "").toLowerCase()}%`;
      const rows = db
        .prepare(
          `${productSelect} WHERE p.tenant_id = ? AND (lower(p.name) LIKE ? OR lower(p.description) LIKE ? OR lower(p.sku) LIKE ?) ORDER BY ${PRODUCT_ORDER[query.sort]}, p.id`,
        )
        .all(tenantId, like, like, like) as ProductRow[];
      return paginate(rows.map(toProduct), query);
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/products/{id}",
    operationId: "getProduct",
    summary: "One product",
    tag: "shop",
    response: productSchema,
    handler: ({ db, tenantId, params }) => requireProduct(db, tenantId, params.id),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/inventory/{product_id}",
    operationId: "getInventory",
    summary: "Stock of one product",
    tag: "shop",
    response: inventorySchema,
    handler: ({ db, tenantId, params }) => {
      const row = db
        .prepare(
          "SELECT product_id, available, reserved FROM inventory WHERE tenant_id = ? AND product_id = ?",
        )
        .get(tenantId, params.product_id) as z.input<typeof inventorySchema> | undefined;
      if (!row) throw notFound("product", params.product_id);
      return row;
    },
  }),
];
