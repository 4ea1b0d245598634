import type Database from "better-sqlite3";
import { z } from "zod";
import { defineRoute } from "../http/define-route";
import { notFound } from "../http/legacy-error";
import { listOf, pageQueryShape, paginate } from "../http/paginate";
import { newId } from "../store/new-id";
import { addressInputSchema, addressSchema, customerSchema, paymentMethodSchema } from "./shop-schemas";

type Customer = z.input<typeof customerSchema>;
type Address = z.input<typeof addressSchema>;

/** A customer of the tenant, or 404. */
export function requireCustomer(db: Database.Database, tenantId: string, id: string): Customer {
  const row = db
    .prepare("SELECT id, email, name, balance FROM customers WHERE tenant_id = ? AND id = ?")
    .get(tenantId, id) as Customer | undefined;
  if (!row) throw notFound("customer", id);
  return row;
}

const addressSelect = "SELECT id, customer_id, label, line1, city, postal_code, country FROM addresses";

/** An address of this customer (another customer's address is 404 too). */
export function requireAddress(
  db: Database.Database,
  tenantId: string,
  customerId: string,
  id: string,
): Address {
  const row = db
    .prepare(`${addressSelect} WHERE tenant_id = ? AND id = ? AND customer_id = ?`)
    .get(tenantId, id, customerId) as Address | undefined;
  if (!row) throw notFound("address", id);
  return row;
}

export interface PaymentMethodRow {
  id: string;
  customer_id: string;
  type: "balance" | "card";
  label: string;
}

/** A payment method of this customer, or 404. */
export function requirePaymentMethod(
  db: Database.Database,
  tenantId: string,
  customerId: string,
  id: string,
): PaymentMethodRow {
  const row = db
    .prepare(
      "SELECT id, customer_id, type, label FROM payment_methods WHERE tenant_id = ? AND id = ? AND customer_id = ?",
    )
    .get(tenantId, id, customerId) as PaymentMethodRow | undefined;
  if (!row) throw notFound("payment_method", id);
  return row;
}

const pageQuery = z.object(pageQueryShape);

export const customerRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/customers",
    operationId: "listCustomers",
    summary: "Customers, optionally by exact email",
    tag: "shop",
    query: z.object({ email: z.string().optional().describe("exact, case-insensitive"), ...pageQueryShape }),
    response: listOf(customerSchema),
    handler: ({ db, tenantId, query }) => {
      const rows = (
        query.email
          ? db
              .prepare(
                "SELECT id, email, name, balance FROM customers WHERE tenant_id = ? AND lower(email) = lower(?) ORDER BY id",
              )
              .all(tenantId, query.email)
          : db
              .prepare("SELECT id, email, name, balance FROM customers WHERE tenant_id = ? ORDER BY id")
              .all(tenantId)
      ) as Customer[];
      return paginate(rows, query);
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/customers/{id}",
    operationId: "getCustomer",
    summary: "One customer with store-credit balance",
    tag: "shop",
    response: customerSchema,
    handler: ({ db, tenantId, params }) => requireCustomer(db, tenantId, params.id),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/customers/{id}/addresses",
    operationId: "listAddresses",
    summary: "The customer's saved addresses",
    tag: "shop",
    query: pageQuery,
    response: listOf(addressSchema),
    handler: ({ db, tenantId, params, query }) => {
      requireCustomer(db, tenantId, params.id);
      const rows = db
        .prepare(`${addressSelect} WHERE tenant_id = ? AND customer_id = ? ORDER BY created_at, id`)
        .all(tenantId, params.id) as Address[];
      return paginate(rows, query);
    },
  }),
  defineRoute({
    method: "POST",
    path: "/v1/customers/{id}/addresses",
    operationId: "addAddress",
    summary: "Save a new address",
    tag: "shop",
    idempotent: true,
    body: addressInputSchema,
    response: addressSchema,
    status: 201,
    handler: ({ db, tenantId, params, body, now }) => {
      requireCustomer(db, tenantId, params.id);
      const id = newId("addr");
      db.prepare(
        "INSERT INTO addresses (tenant_id, id, customer_id, label, line1, city, postal_code, country, created_at) VALUES (?,?,?,?,?,?,?,?,?)",
      ).run(
        tenantId,
        id,
        params.id,
        body.label,
        body.line1,
        body.city,
        body.postal_code,
        body.country,
        now.toISOString(),
      );
      return requireAddress(db, tenantId, params.id, id);
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/customers/{id}/payment-methods",
    operationId: "listPaymentMethods",
    summary: "The customer's payment methods; balance shows the spendable store credit",
    tag: "shop",
    query: pageQuery,
    response: listOf(paymentMethodSchema),
    handler: ({ db, tenantId, params, query }) => {
      const customer = requireCustomer(db, tenantId, params.id);
      const rows = db
        .prepare(
          "SELECT id, customer_id, type, label FROM payment_methods WHERE tenant_id = ? AND customer_id = ? ORDER BY id",
        )
        .all(tenantId, params.id) as PaymentMethodRow[];
      return paginate(
        rows.map((m) => ({
          id: m.id,
          type: m.type,
          label: m.label,
          available: m.type === "balance" ? customer.balance : null,
        })),
        query,
      );
    },
  }),
];
