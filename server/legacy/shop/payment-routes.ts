import type Database from "better-sqlite3";
import { z } from "zod";
import { defineRoute } from "../http/define-route";
import { LegacyError, notFound, ruleViolation } from "../http/legacy-error";
import { listOf, pageQueryShape, paginate } from "../http/paginate";
import { newId } from "../store/new-id";
import { requireCustomer, requirePaymentMethod } from "./customer-routes";
import { requireOrderRow } from "./order-view";
import { paymentSchema, referenceField } from "./shop-schemas";

type Payment = z.input<typeof paymentSchema>;
const paymentSelect =
  "SELECT id, order_id, payment_method_id, status, amount, method, reference, created_at FROM payments";

export const paymentRoutes = [
  defineRoute({
    method: "POST",
    path: "/v1/payments",
    operationId: "createPayment",
    summary:
      "Pay an order in full with store credit (balance) or a card; an order placed from the cart (from_cart) takes its items off the cart",
    tag: "shop",
    idempotent: true,
    body: z.strictObject({
      order_id: z.string().min(1),
      payment_method_id: z.string().min(1),
      amount: z.number().int().min(1).describe("integer cents; must equal the order total"),
      reference: referenceField,
    }),
    response: paymentSchema,
    status: 201,
    errors: [
      { status: 409, code: "order_not_payable", when: "the order is not pending_payment" },
      { status: 409, code: "insufficient_balance", when: "store credit is below the amount" },
      { status: 422, code: "amount_mismatch", when: "amount differs from the order total" },
    ],
    handler: ({ db, tenantId, body, now }) => {
      const order = requireOrderRow(db, tenantId, body.order_id);
      if (order.status !== "pending_payment") {
        throw ruleViolation(
          "order_not_payable",
          `order ${order.id} is ${order.status}, not pending_payment`,
          {
            status: order.status,
          },
        );
      }
      const method = requirePaymentMethod(db, tenantId, order.customer_id, body.payment_method_id);
      if (body.amount !== order.total) {
        throw new LegacyError(
          422,
          "amount_mismatch",
          `amount ${body.amount} differs from the order total ${order.total}`,
          {
            expected: order.total,
            got: body.amount,
          },
        );
      }
      if (method.type === "balance") {
        const customer = requireCustomer(db, tenantId, order.customer_id);
        if (customer.balance < body.amount) {
          throw ruleViolation(
            "insufficient_balance",
            `store credit ${customer.balance} is below ${body.amount}`,
            {
              available: customer.balance,
              required: body.amount,
            },
          );
        }
        db.prepare("UPDATE customers SET balance = balance - ? WHERE tenant_id = ? AND id = ?").run(
          body.amount,
          tenantId,
          customer.id,
        );
      }
      const payment: Payment = {
        id: newId("pay"),
        order_id: order.id,
        payment_method_id: method.id,
        status: "succeeded",
        amount: body.amount,
        method: method.type,
        reference: body.reference ?? null,
        created_at: now.toISOString(),
      };
      db.prepare(
        "INSERT INTO payments (tenant_id, id, order_id, payment_method_id, method, amount, status, reference, created_at) VALUES (?,?,?,?,?,?,?,?,?)",
      ).run(
        tenantId,
        payment.id,
        payment.order_id,
        payment.payment_method_id,
        payment.method,
        payment.amount,
        payment.status,
        payment.reference,
        payment.created_at,
      );
      db.prepare("UPDATE orders SET status = 'paid', updated_at = ? WHERE tenant_id = ? AND id = ?").run(
        payment.created_at,
        tenantId,
        order.id,
      );
      // As a shop does: a cart checked out leaves the cart, so a later "buy my cart" does not buy
      // it twice. Only then: an order of two mugs placed beside a cart holding two mugs is not
      // that cart, and emptying it would change what the customer did not ask to change.
      if (order.from_cart) takeOffCart(db, tenantId, order.customer_id, order.id);
      return payment;
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/payments",
    operationId: "listPayments",
    summary: "Payments by reference or order (verify a payment by the caller's reference)",
    tag: "shop",
    query: z.object({ reference: z.string().optional(), order_id: z.string().optional(), ...pageQueryShape }),
    response: listOf(paymentSchema),
    handler: ({ db, tenantId, query }) => {
      const where = ["tenant_id = ?"];
      const args: string[] = [tenantId];
      if (query.reference) {
        where.push("reference = ?");
        args.push(query.reference);
      }
      if (query.order_id) {
        where.push("order_id = ?");
        args.push(query.order_id);
      }
      const rows = db
        .prepare(`${paymentSelect} WHERE ${where.join(" AND ")} ORDER BY created_at DESC, rowid DESC`)
        .all(...args) as Payment[];
      return paginate(rows, query);
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/payments/{id}",
    operationId: "getPayment",
    summary: "One payment",
    tag: "shop",
    response: paymentSchema,
    handler: ({ db, tenantId, params }) => {
      const row = db.prepare(`${paymentSelect} WHERE tenant_id = ? AND id = ?`).get(tenantId, params.id) as
        | Payment
        | undefined;
      if (!row) throw notFound("payment", params.id);
      return row;
    },
  }),
];

/** What a paid cart order bought leaves the cart: lines bought whole go, larger ones shrink. */
function takeOffCart(db: Database.Database, tenantId: string, customerId: string, orderId: string): void {
  db.prepare(
    `DELETE FROM cart_items WHERE tenant_id = ? AND customer_id = ? AND product_id IN (
       SELECT product_id FROM order_items WHERE tenant_id = ? AND order_id = ?)
     AND quantity <= (SELECT SUM(oi.quantity) FROM order_items oi
       WHERE oi.tenant_id = cart_items.tenant_id AND oi.order_id = ? AND oi.product_id = cart_items.product_id)`,
  ).run(tenantId, customerId, tenantId, orderId, orderId);
  db.prepare(
    `UPDATE cart_items SET quantity = quantity - (
       SELECT SUM(oi.quantity) FROM order_items oi
       WHERE oi.tenant_id = cart_items.tenant_id AND oi.order_id = ? AND oi.product_id = cart_items.product_id)
     WHERE tenant_id = ? AND customer_id = ? AND product_id IN (
       SELECT product_id FROM order_items WHERE tenant_id = ? AND order_id = ?)
     AND quantity > (SELECT SUM(oi.quantity) FROM order_items oi
       WHERE oi.tenant_id = cart_items.tenant_id AND oi.order_id = ? AND oi.product_id = cart_items.product_id)`,
  ).run(orderId, tenantId, customerId, tenantId, orderId, orderId);
}
