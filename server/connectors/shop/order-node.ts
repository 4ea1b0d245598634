import { z } from "zod";
import type { NodeDefinition, NodeInput, NodeResult } from "../sdk/define-capability";
import { money } from "../sdk/markdown";
import type { ValidationError } from "../sdk/outcome";
import { statusLifecycle } from "../sdk/record-events";
import { afterSalesNow } from "./after-sales-eligibility";
import { refundsTo } from "./refund-destination";
import type { ShopAdapter, ShopOrder } from "./shop-adapter";
import { canSeeOrder, customerFor, isOwnOrder } from "./shop-customer";

export const orderIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "an order id such as ord_123")
  .describe("The order's id, e.g. ord_paid (from the order view or the user's order list)");

/**
 * The first node of every order-bound capability: load the order the actor may see, then check
 * it. `scope: "own"` narrows it to the actor's own orders whatever their role (paying spends the
 * payer's money: support may see a customer's order but not pay it for them).
 */
export function orderNode(
  description: string,
  check?: (order: ShopOrder) => ValidationError[] | Promise<ValidationError[]>,
  possible?: (order: ShopOrder, values: Record<string, unknown>) => string | null,
  scope: "visible" | "own" = "visible",
  /** What the order shows once named: its lines' after-sales flags only where they decide. */
  view: "plain" | "after_sales" = "plain",
): NodeDefinition<ShopAdapter> {
  return {
    id: "ORDER",
    description,
    fields: { order_id: orderIdSchema },
    lifecycle: ORDER_LIFECYCLE,
    async resolve(input): Promise<NodeResult> {
      const { adapter, actor, values, derived } = input;
      const id = values.order_id as string | undefined;
      const customer = await customerFor(adapter, actor, derived);
      // No order named: offer the user's recent orders with what this capability can do for
      // each, so "refund my order that is on its way" needs no browsing first. What the patch
      // already says (an exchange) narrows them: an order it cannot be done for is left out.
      if (!id) {
        if (!customer) return {};
        const { rows, more } = await offered(input, customer.id);
        const orders = rows.filter((r) => r.possible !== null);
        const left = rows.length - orders.length;
        return {
          options: {
            orders,
            order_of: {
              orders: `newest first${left ? `; ${left} left out: not possible with the fields given` : ""}`,
            },
            ...(more
              ? {
                  more_orders:
                    "older ones: name the order in order_id by its items' words, or shop://orders?status=",
                }
              : {}),
          },
        };
      }
      const order = await adapter.order(id);
      const reachable =
        order && (scope === "own" ? isOwnOrder(customer, order) : canSeeOrder(actor, customer, order));
      if (!order || !reachable) return { notFound: { entity: "Order", id } };
      return {
        derived: { order },
        options: { order: view === "after_sales" ? orderBrief(order) : plainOrder(order) },
        errors: check ? await check(order) : [],
      };
    },
    // The user's words read every recent order, those left out of the offer too ("my oldest
    // order" is the oldest, not the oldest one what was given fits): taken, its checks answer.
    async lookup(input): Promise<Record<string, unknown[]>> {
      const customer = await customerFor(input.adapter, input.actor, input.derived);
      if (!customer || input.values.order_id) return {};
      const { rows } = await offered(input, customer.id);
      return { orders: rows.map((r) => ({ ...r, possible: r.possible ?? LEFT_OUT })) };
    },
  };

  /** The customer's recent orders, each with this capability's verdict (null: left out of the offer). */
  async function offered({ adapter, values, createdByAgent }: NodeInput<ShopAdapter>, customerId: string) {
    const recent = await adapter.orders({ customer_id: customerId, per_page: CANDIDATES });
    // "The order I placed today": the ones this agent's own checkout placed say so.
    const mine =
      (await createdByAgent?.(
        "Order",
        recent.data.map((o) => o.id),
      )) ?? {};
    const rows = await Promise.all(
      recent.data.map(async (order) => ({
        ...orderCandidate(order),
        ...(mine[order.id] ? { placed_by: "you" } : {}),
        possible: possible
          ? possible(order, values)
          : // Why not, in a few words: the first clause of each refusal.
            ((await check?.(order)) ?? []).map((e) => e.message.split(";")[0]).join("; ") || "yes",
      })),
    );
    return { rows, more: !!recent.next_page };
  }
}

/**
 * What people call each status, for the ORDER node's words and the orders listing's filter alike:
 * set T's "orders waiting for payment" searched the listing and filtered nothing. "Unpaid" is not
 * one of them: it stays a negation ("not paid"), which alone never runs a change nobody approves
 * (a review: "I never said it was unpaid; change …" ran on the waiting order when it was).
 */
export const ORDER_STATUS_WORDS = {
  pending_payment: ["waiting for payment", "awaiting payment", "waiting to be paid", "payment due"],
  shipped: ["on its way", "on the way", "in transit", "out for delivery"],
  delivered: ["arrived"],
};

/**
 * What an order went through, by its status: a delivered order was paid and shipped, so "my order
 * that hasn't shipped" never means it; the shop cancels only orders not yet shipped. And what
 * people call each status: "my order that's waiting for payment" is the pending_payment one
 * (set P listed all eight orders for it).
 */
export const ORDER_LIFECYCLE = statusLifecycle(
  "status",
  ["pending_payment", "paid", "shipped", "delivered"],
  { cancelled: "paid" },
  ORDER_STATUS_WORDS,
);

/** The verdict of an order what was given (an exchange) cannot be done for. */
const LEFT_OUT = "not open to what was given";

/** How many recent orders the ORDER node offers when none is named. */
const CANDIDATES = 10;

/** One line's worth of an order (the list is newest first): enough to tell the user's orders apart. */
function orderCandidate(order: ShopOrder) {
  return {
    id: order.id,
    status: order.shipment?.status === "in_transit" ? "shipped, in transit" : order.status,
    items: order.items.map((i) => `${i.name} ×${i.quantity}`).join(", "),
    // Formatted (the shop is in USD cents): a bare 15650 next to "Pay $156.50" reads as dollars.
    total: money(order.total),
    ship_to: order.address?.label ?? null,
    // When it was placed (shown with how long ago): "the order I placed today" is answered from
    // the list itself.
    placed: order.created_at,
  };
}

/**
 * An order as a payment, a parcel or an address change needs it: what it is, not what may be
 * returned. Round 20: paying an order showed each line's returnable and exchangeable flags (~90
 * tokens) the payment never reads.
 */
function plainOrder(order: ShopOrder) {
  const { placed: _placed, ...what } = orderCandidate(order);
  return {
    ...what,
    shipment: order.shipment ? { status: order.shipment.status, carrier: order.shipment.carrier } : null,
  };
}

export function orderBrief(order: ShopOrder) {
  const { items, items_why_not } = afterSalesNow(order);
  return {
    id: order.id,
    status: order.status,
    total: order.total,
    ...(items_why_not ? { items_why_not } : {}),
    // What may be done with each line now, from the same evaluation as the order's paths; a false
    // flag's reason on its line, or once above for all of them.
    items: items.map((i) => ({
      id: i.id,
      product_id: i.product_id,
      name: i.name,
      quantity: i.quantity,
      unit_price: i.unit_price,
      returnable: i.returnable,
      exchangeable: i.exchangeable,
      // Only a line an earlier return or exchange settled says so (the others are all "ok").
      ...(i.status && i.status !== "ok" ? { status: i.status } : {}),
      ...(i.why_not ? { why_not: i.why_not } : {}),
    })),
    address: order.address ? { id: order.address.id, label: order.address.label } : null,
    shipment: order.shipment ? { status: order.shipment.status, carrier: order.shipment.carrier } : null,
    ...(refundsTo(order) ? { refund_goes_to: refundsTo(order) } : {}),
  };
}
