import type Database from "better-sqlite3";
import { z } from "zod";
import { defineRoute } from "../http/define-route";
import { listOf, pageQueryShape, paginate } from "../http/paginate";
import { loadCart } from "./cart-routes";
import { type CouponRow, couponEligibility } from "./coupon-eligibility";
import { requireCustomer } from "./customer-routes";
import { couponSchema } from "./shop-schemas";

/** A coupon by code (case-insensitive), or undefined. */
export function findCoupon(db: Database.Database, tenantId: string, code: string): CouponRow | undefined {
  return db
    .prepare(
      "SELECT code, description, discount, min_subtotal FROM coupons WHERE tenant_id = ? AND upper(code) = upper(?)",
    )
    .get(tenantId, code) as CouponRow | undefined;
}

export const couponRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/coupons",
    operationId: "listCoupons",
    summary: "Coupons with eligibility for a subtotal",
    description:
      "Eligibility is judged on `subtotal`; without it, on the customer's cart subtotal; without either, on 0.",
    tag: "shop",
    query: z.object({
      customer_id: z.string().optional(),
      subtotal: z.coerce.number().int().min(0).optional().describe("integer cents"),
      ...pageQueryShape,
    }),
    response: listOf(couponSchema),
    handler: ({ db, tenantId, query }) => {
      let subtotal = query.subtotal;
      if (query.customer_id) {
        requireCustomer(db, tenantId, query.customer_id);
        subtotal ??= loadCart(db, tenantId, query.customer_id).subtotal;
      }
      const rows = db
        .prepare(
          "SELECT code, description, discount, min_subtotal FROM coupons WHERE tenant_id = ? ORDER BY min_subtotal",
        )
        .all(tenantId) as CouponRow[];
      return paginate(
        rows.map((c) => couponEligibility(c, subtotal ?? 0)),
        query,
      );
    },
  }),
];
