import type { Actor } from "../sdk/define-capability";
import type { ValidationError } from "../sdk/outcome";
import type { ShopAdapter, ShopCustomerRef, ShopOrder } from "./shop-adapter";

/** The legacy customer a Signpost user acts as: the one with the same email. */
export async function customerFor(
  adapter: ShopAdapter,
  actor: Actor,
  derived: Record<string, unknown>,
): Promise<ShopCustomerRef | null> {
  if (derived.customer) return derived.customer as ShopCustomerRef;
  const customer = await adapter.customerByEmail(actor.email);
  if (customer) derived.customer = customer;
  return customer;
}

/** Whether the order is this customer's own (what paying it, or a member's reach, needs). */
export function isOwnOrder(customer: ShopCustomerRef | null | undefined, order: ShopOrder): boolean {
  return !!customer && order.customer_id === customer.id;
}

/** Members reach only their own orders; support and admins any order of their tenant. */
export function canSeeOrder(actor: Actor, customer: ShopCustomerRef | null, order: ShopOrder): boolean {
  if (actor.role === "admin" || actor.role === "support") return true;
  return isOwnOrder(customer, order);
}

export const noCustomer: ValidationError = {
  field: "customer",
  code: "customer_not_found",
  message: "Your account has no customer record in the shop",
};
