import type Database from "better-sqlite3";
import { newId } from "../store/new-id";
import { orderPayment, type Refund, touchOrder } from "./order-view";

export interface RefundInput {
  kind: Refund["kind"];
  amount: number;
  reason: string;
  reference?: string;
  details?: Record<string, unknown>;
}

/**
 * Records a refund and moves the money back: store credit goes back onto the customer's
 * balance; card refunds are settled by the card processor (not modelled).
 */
export function issueRefund(
  db: Database.Database,
  tenantId: string,
  order: { id: string; customer_id: string },
  input: RefundInput,
  now: Date,
): Refund {
  const id = newId(input.kind === "exchange" ? "exc" : input.kind === "return" ? "ret" : "re");
  const details = input.details ?? {};
  db.prepare(
    "INSERT INTO refunds (tenant_id, id, order_id, kind, amount, status, reason, reference, details_json, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
  ).run(
    tenantId,
    id,
    order.id,
    input.kind,
    input.amount,
    "succeeded",
    input.reason,
    input.reference ?? null,
    JSON.stringify(details),
    now.toISOString(),
  );
  const payment = orderPayment(db, tenantId, order.id);
  if (payment?.method === "balance" && input.amount > 0) {
    db.prepare("UPDATE customers SET balance = balance + ? WHERE tenant_id = ? AND id = ?").run(
      input.amount,
      tenantId,
      order.customer_id,
    );
  }
  touchOrder(db, tenantId, order.id, now);
  return {
    id,
    order_id: order.id,
    kind: input.kind,
    amount: input.amount,
    status: "succeeded",
    reason: input.reason,
    reference: input.reference ?? null,
    details,
    created_at: now.toISOString(),
  };
}
