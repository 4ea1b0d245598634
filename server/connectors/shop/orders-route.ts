import type { BackendOutcome, BrowseBackend, ListPage, Row } from "../sdk/browse-backend";
import type { FilterSpec, RouteDefinition } from "../sdk/define-route";
import { code, money } from "../sdk/markdown";
import type { BrowseUri } from "../sdk/parse-browse-uri";
import { askedColumnNames, referenceLabels } from "../sdk/reference-labels";
import { filterValue, invalidFilterPage, isOutcome, listPage, pageNumber, perPage } from "../sdk/route-pages";
import { ORDER_LIFECYCLE, ORDER_STATUS_WORDS } from "./order-node";
import { PAYMENT_WORDS } from "./payment-words";
import { returnableNow } from "./returnable-now";
import { shippedTracking } from "./shipped-tracking";
import type { ShopOrder } from "./shop-adapter";
import { SHOP_MONEY } from "./shop-policy";
import { customerNames, isStaff, listOrders } from "./shop-records";

/**
 * The facts a listing row needs beyond the order's own columns: what it holds (itemsText), for
 * a shipped order its carrier and tracking number in the status cell ("shipped · UPS
 * 1Z999AA11001"), so "which of my orders are on their way, and what's the tracking number?" is
 * one read, and for an unpaid one what is owed ("pending_payment · $156.50 due"): issue 23's
 * model asked "do I still owe money?" and opened the order to be sure the total was the amount due.
 */
function withRowFacts(result: ListPage<Row> | BackendOutcome): ListPage<Row> | BackendOutcome {
  if (isOutcome(result)) return result;
  const data = result.data.map(({ shipping_difference, refundable, ...r }) => {
    const tracking = shippedTracking(r);
    // Which way the money goes, in the column's name: the legacy's "shipping_difference: $7.00"
    // was read as owed by the customer (played); it is shipping they paid and may get back.
    // `refundable` is the paid money not yet refunded, whatever the return window says: issue 23
    // read "refundable $23.00" on an order whose window had ended as a contradiction.
    const row = {
      ...r,
      items: itemsText(r),
      item_prices: itemPrices(r),
      payment_method: paymentMethodText(r),
      shipping_owed_to_customer: shipping_difference,
      paid_not_refunded: refundable,
      // What can be returned now and until when, or why nothing can: one column answers it.
      can_return: returnableNow(r as unknown as ShopOrder),
      // Where it goes, by the address's label: set R's models asked "which orders went to my
      // office" and re-read the listing with the whole address object for it (one call more).
      ship_to: shipTo(r),
    };
    // A coupon used, beside the status: few orders have one, and set DD's models read the
    // listing again with the coupon columns to learn "which of my orders used a coupon?".
    const coupon =
      typeof r.coupon_code === "string" && r.coupon_code
        ? `coupon ${r.coupon_code}${typeof r.discount === "number" ? ` −${money(r.discount)}` : ""}`
        : "";
    if (r.status === "pending_payment" && typeof r.total === "number")
      return {
        ...row,
        status: [`pending_payment · ${money(r.total)} due`, coupon].filter(Boolean).join(" · "),
      };
    // Money that came back, beside the status (set BW: "what have I spent on orders delivered to
    // my office?" was read again with the refund columns to be sure none was refunded).
    const back = typeof r.refunded === "number" && r.refunded > 0 ? `refunded ${money(r.refunded)}` : "";
    const said = [String(r.status), tracking, back, coupon].filter(Boolean).join(" · ");
    return said === String(r.status) ? row : { ...row, status: said };
  });
  return { ...result, data };
}

/** The label of the address an order ships to ("Office"), or its first line where it has none. */
function shipTo(order: Row): string | null {
  const address = order.address as Row | null | undefined;
  const label = address?.label ?? address?.line1;
  return typeof label === "string" && label.trim() ? label : null;
}

/**
 * How an order was paid, as the `?payment_method=` filter names it, store credit said as such
 * ("balance (store credit)"): set K's model, asked which orders store credit paid, read a listing
 * with no payment column and a `balance` nothing called store credit. Empty while unpaid; a
 * column only where the listing is filtered by it (a field `?columns=` can ask for elsewhere).
 */
function paymentMethodText(order: Row): string | null {
  const method = (order.payment as Row | null | undefined)?.method;
  if (method === "balance") return "balance (store credit)";
  return typeof method === "string" ? method : null;
}

/**
 * What an order holds, in a few words ("Desk Lamp ×1, Signpost Mug ×1"): people name an order by
 * it ("my lamp order", "the kettle order"). Rounds 26 and 28: the listing showed no items and no
 * text filter, and each model opened orders one by one to find the lamp or the kettle.
 */
export function itemsText(order: Row): string {
  const items = Array.isArray(order.items) ? (order.items as Row[]) : [];
  const text = items.map((i) => `${String(i.name)} ×${String(i.quantity)}`).join(", ");
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/**
 * Each item's unit price ("Desk Lamp $320.00 ×1; Signpost Mug $18.00 ×1"): a column `?columns=`
 * asks for, not shown by default. Set AG: "what's the most expensive thing I've ever ordered?"
 * read the totals, then opened orders one by one for their items' prices (4–5 calls).
 */
function itemPrices(order: Row): string {
  const items = Array.isArray(order.items) ? (order.items as Row[]) : [];
  return items.map((i) => `${String(i.name)} ${money(i.unit_price)} ×${String(i.quantity)}`).join("; ");
}

/**
 * The orders on this page an action of this same agent placed, for one line above the rows
 * ("Placed through this assistant: `ord_…`"), so "cancel the order I placed today" is answered by
 * the list itself; another agent's or tenant's never are (the gateway scopes it). Not a column:
 * played (issue 23), `placed_by` read "you" on one row and "—" on every other, and the model
 * asked for `customer_id` to be sure the other orders were the customer's own.
 */
async function placedHere(backend: BrowseBackend, result: ListPage<Row> | BackendOutcome): Promise<string[]> {
  if (isOutcome(result) || !backend.createdByCaller) return [];
  const ids = result.data.map((r) => String(r.id));
  const mine = await backend.createdByCaller("Order", ids);
  return ids.filter((id) => mine[id]);
}

/**
 * What the orders listing says above its rows: whose orders they are where the caller sees only
 * their own (a member; staff read every customer's, never called "yours"), the ones this agent
 * placed, the order, and what a total holds.
 */
function ordersHeading(own: boolean, placed: readonly string[]): string {
  return [
    own ? "Your orders" : "",
    placed.length ? `Placed through this assistant: ${placed.map(code).join(", ")}` : "",
    "Newest first",
    // Set BJ: "what did I pay for it, shipping included?" opened the order to learn what `total` held.
    "Each total is items + shipping − coupon; a refund or coupon is said beside the status",
  ]
    .filter(Boolean)
    .join(". ");
}

/**
 * When each order reached the state the listing is filtered by (`delivered_at` beside
 * `?status=delivered`): set BU's "my most recently delivered order" read a delivered listing in
 * the order the orders were placed and asked again with the column to be sure.
 */
function reachedAt(uri: BrowseUri): string[] {
  const at = { paid: "paid_at", shipped: "shipped_at", delivered: "delivered_at" }[
    filterValue(uri, "status") ?? ""
  ];
  return at ? [at] : [];
}

/**
 * The order statuses of the legacy API (API.md), anything else it answers with a 400, and how an
 * order was paid (`balance` is store credit; an unpaid order matches neither).
 */
const ORDER_FILTERS = {
  status: ["paid", "shipped", "delivered", "pending_payment", "cancelled"],
  payment_method: ["balance", "card"],
} as const satisfies FilterSpec;

/**
 * What people call the ways an order was paid (filter-words.ts reads them), each with "paid" and
 * "pay" too: "orders I paid with store credit" names how they were paid, not the status `paid`
 * (the longer words win), and "pay" is no word left over to look for in the rows. And what people
 * call each status ("waiting for payment", "on its way"), as the ORDER node reads them.
 */
const ORDER_VALUE_WORDS = {
  payment_method: { balance: withPaid(PAYMENT_WORDS.balance), card: withPaid(PAYMENT_WORDS.card) },
  // "unpaid" filters the listing (set AE: searched as text); a change's words keep it out of the
  // ORDER node's words, where "I never said it was unpaid" would pick the other order and run.
  // Not "pending" alone (review 56: "orders pending shipment" hid the paid order waiting to ship).
  status: { ...ORDER_STATUS_WORDS, pending_payment: [...ORDER_STATUS_WORDS.pending_payment, "unpaid"] },
};

/** The names first (a filter is said back in the first of its fewest words), then "paid with …", "pay with …". */
function withPaid(names: readonly string[]): string[] {
  return [...names, ...names.map((w) => `paid with ${w}`), ...names.map((w) => `pay with ${w}`)];
}

/**
 * `shop://orders`: the caller's orders (a member's own, staff every customer's), newest first,
 * each with what it holds, its status (tracking or what is due beside it), total and where it
 * ships, filtered by
 * status and by how it was paid.
 */
export const ORDERS_ROUTE: RouteDefinition = {
  pattern: "shop://orders",
  title: "Orders",
  description: `Your orders, newest first, with status and total. Filter with ?status=${ORDER_FILTERS.status.join("|")}, ?payment_method=${ORDER_FILTERS.payment_method.join("|")} for how it was paid.`,
  // What an order's money is asked by (set AS: "How much money have I been refunded so far?"
  // opened no listing, and both models read this one next with its `refunded` column).
  keywords: ["orders", "my orders", "purchases", "order history", "bought", "spent", "refunded", "订单"],
  startPoint: true,
  example: "shop://orders?status=delivered",
  filters: ORDER_FILTERS,
  valueWords: ORDER_VALUE_WORDS,
  // What a coupon took off is its `discount`: "had a coupon, and how much did it save me" (set CA).
  columnWords: { discount: ["coupon", "save", "saved", "savings"] },
  lifecycle: ORDER_LIFECYCLE,
  async render(match, backend) {
    const invalid = invalidFilterPage("Orders", match.uri, ORDER_FILTERS);
    if (invalid) return invalid;
    const result = await listOrders(backend, {
      page: pageNumber(match.uri),
      perPage: perPage(match.uri),
      status: filterValue(match.uri, "status"),
      paymentMethod: filterValue(match.uri, "payment_method"),
    });
    const rows = withRowFacts(result);
    const placed = await placedHere(backend, rows);
    // How each was paid where the page is filtered by it: always, it cost the default page 5%
    // (26 tokens of 529 on the demo, 7 more a store-credit row), and the filter answers which.
    const paid = filterValue(match.uri, "payment_method") ? ["payment_method"] : [];
    const columns = [
      "id",
      "status",
      "items",
      "total",
      ...paid,
      "ship_to",
      "created_at",
      ...reachedAt(match.uri),
    ];
    const references = isOutcome(rows)
      ? {}
      : await referenceLabels(rows.data, [...columns, ...askedColumnNames(match.uri.query.columns)], {
          customer_id: customerNames(backend),
        });
    const page = listPage(
      "Orders",
      match.uri,
      rows,
      columns,
      (row) => `shop://order/${row.id}`,
      ordersHeading(!isStaff(backend), placed),
      SHOP_MONEY,
      { references },
    );
    // Each row named by its status alone (what a status line names it by), tracking aside.
    const statuses = isOutcome(result) ? [] : result.data.map((r) => String(r.status));
    return {
      ...page,
      items: page.items?.map((item, i) => ({ ...item, title: statuses[i] ?? item.title })),
    };
  },
};
