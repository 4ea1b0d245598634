import type { Actor } from "../sdk/define-capability";
import { money } from "../sdk/markdown";
import type { NextAction } from "../sdk/outcome";
import { recordDates } from "../sdk/record-dates";
import { afterSalesNow } from "./after-sales-eligibility";
import { expectedDelivery } from "./expected-delivery";
import { lastScan } from "./last-scan";
import { paymentRefusals } from "./order-payability";
import { paidWith } from "./paid-with";
import type { ShopAdapter } from "./shop-adapter";
import { canSeeOrder, customerFor, isOwnOrder } from "./shop-customer";
import { wholeOrderWords } from "./whole-order-only";

/**
 * The Order view: everything needed for one business judgement in one read — items, payment,
 * fulfilment, what may be done now and why the rest may not, and next_actions into the
 * capabilities that apply. Null when the actor may not see the order.
 */
export async function orderView(adapter: ShopAdapter, actor: Actor, orderId: string) {
  // Two independent reads of the legacy system, in parallel: the order's view costs one round trip.
  const [customer, order] = await Promise.all([customerFor(adapter, actor, {}), adapter.order(orderId)]);
  if (!order || !canSeeOrder(actor, customer, order)) return null;
  // The paying method's label and, for an order on its way, its latest scan and when it should
  // arrive: each read apart, at once.
  const [paidBy, scan, expected] = await Promise.all([
    paidWith(adapter, order),
    lastScan(adapter, order),
    expectedDelivery(adapter, order),
  ]);
  // Lines and paths from one evaluation, so an item never says yes under an order that says no.
  const { paths, items, items_why_not } = afterSalesNow(order);
  const shipped = order.status === "shipped" || order.status === "delivered";
  const addressChange =
    order.status === "pending_payment" || order.status === "paid"
      ? { eligible: true }
      : {
          eligible: false,
          reason: order.status === "cancelled" ? "order_cancelled" : "order_already_shipped",
        };
  // Only the customer pays their order (pay_order takes no one else's).
  const own = isOwnOrder(customer, order);
  const refusals = paymentRefusals(order);
  const payment = !own
    ? { eligible: false, reason: "not_your_order", message: "Only the customer can pay this order" }
    : refusals[0]
      ? { eligible: false, reason: refusals[0].code, message: refusals[0].message }
      : { eligible: true };
  const next: NextAction[] = [];
  // An unpaid order's first business is its payment (pay_order pays it; checkout would place another).
  if (payment.eligible)
    next.push({
      tool: "start_action",
      args: { capability: "pay_order", entity_id: order.id },
      description: `Pay this order (${money(order.total)} due)`,
    });
  const eligible = paths.filter((p) => p.eligible);
  if (eligible.length)
    next.push({
      tool: "start_action",
      args: { capability: "after_sales", entity_id: order.id },
      description: `After-sales request (${eligible.map((p) => p.kind).join(", ")})`,
    });
  if (addressChange.eligible)
    next.push({
      tool: "start_action",
      args: { capability: "change_delivery_address", entity_id: order.id },
      description: "Change the delivery address (not shipped yet)",
    });
  // Nothing paid, nothing to refund: cancelling runs at once (a paid order's cancel is after-sales').
  if (order.status === "pending_payment")
    next.push({
      tool: "start_action",
      args: { capability: "cancel_unpaid_order", entity_id: order.id },
      description: "Cancel this unpaid order (no money moves)",
    });
  if (shipped)
    next.push({
      tool: "start_action",
      args: { capability: "track_shipment", entity_id: order.id },
      description: scan ? "Every scan of the shipment (the latest is on this order)" : "Track the shipment",
    });
  const dates = recordDates(order as unknown as Record<string, unknown>);
  return {
    entity: "Order",
    id: order.id,
    status: order.status,
    // When it was paid, shipped, delivered, and until when it may be returned: "when did it
    // ship?" is answered by the order, not by a tracking action (issue 23).
    ...(dates ? { dates } : {}),
    // Why the lines' false flags are false when the order is the reason: said once, not per line.
    ...(items_why_not ? { items_why_not } : {}),
    items,
    totals: {
      subtotal: order.subtotal,
      shipping: order.shipping_price,
      discount: order.discount,
      coupon: order.coupon_code ?? null,
      total: order.total,
      currency: "USD",
    },
    address: order.address,
    // Which method paid, by its label beside its type: "which card did I use?" is answered here.
    payment: order.payment && paidBy ? { ...order.payment, paid_with: paidBy } : order.payment,
    fulfilment: {
      shipping_method: order.shipping_method,
      shipment: order.shipment,
      // "Where is it now?" is answered by the order: its latest scan (issue 23), named as the
      // latest, not "last" (set N: a model tracked the parcel again to be sure it was current).
      ...(scan ? { latest_scan: scan } : {}),
      // "When will it arrive?" is answered here too: the quoted days, said as quoted (no carrier date).
      ...(expected ? { expected_delivery: expected } : {}),
    },
    refunds: order.refunds,
    after_sales: Object.fromEntries(
      paths.map((p) => [
        p.kind,
        p.eligible
          ? // A shipping refund says how much shipping the customer overpaid: the shop owes it;
            // refund-only before shipment, that it cancels the whole order (never one item).
            {
              eligible: true,
              ...(p.kind === "shipping_refund" ? { message: p.message } : {}),
              ...(p.kind === "refund_only" && wholeOrderWords(order)
                ? { message: wholeOrderWords(order) }
                : {}),
            }
          : { eligible: false, reason: p.reason, message: p.message },
      ]),
    ),
    // What may be done is the next actions (the page's forms); only what may not is said, with
    // why, as a ticket says it (set BD: two "no — …" lines on every order read, ~40 tokens).
    ...notNow({ change_delivery_address: addressChange, pay_order: payment }),
    created_at: order.created_at,
    updated_at: order.updated_at,
    next_actions: next,
  };
}

/** The capabilities the order cannot take now, each with its reason's code; nothing when it takes them all. */
function notNow(checks: Record<string, { eligible: boolean; reason?: string }>): {
  not_now?: Record<string, string>;
} {
  const no = Object.entries(checks).flatMap(([capability, c]) =>
    !c.eligible && c.reason ? [[capability, c.reason] as const] : [],
  );
  return no.length ? { not_now: Object.fromEntries(no) } : {};
}
