import { money } from "../sdk/markdown";
import { openItems, settledItems, settledSentence } from "./after-sales-items";
import type { ShopOrder, ShopOrderItem } from "./shop-adapter";

export const AFTER_SALES_KINDS = ["refund_only", "return_refund", "exchange", "shipping_refund"] as const;
export type AfterSalesKind = (typeof AFTER_SALES_KINDS)[number];

/** The after-sales paths in words, for the person who approves one. */
export const KIND_LABELS: Record<AfterSalesKind, string> = {
  refund_only: "Refund without a return",
  return_refund: "Return and refund",
  exchange: "Exchange",
  shipping_refund: "Shipping refund",
};

export interface AfterSalesPath {
  kind: AfterSalesKind;
  eligible: boolean;
  reason?: string;
  message: string;
}

const day = (iso: string) => iso.slice(0, 10);

/**
 * Which after-sales paths an order allows now, and why the others do not: the rules the
 * shop's screens used to enforce by hiding buttons, in one deterministic place.
 */
export function afterSalesPaths(order: ShopOrder, now = new Date()): AfterSalesPath[] {
  const s = order.status;
  const refunded =
    order.refunds?.reduce(
      (sum, r) => sum + (r.kind === "refund" || r.kind === "refund_only" ? r.amount : 0),
      0,
    ) ?? 0;
  // The shop says until when it takes returns and exchanges; without a date it takes none.
  const until = order.returns_until ?? null;
  const windowOpen = s === "delivered" && until !== null && now.getTime() <= Date.parse(until);
  const closed = until ? `closed on ${day(until)}` : "is not open for this order";
  const notYet = (what: string) =>
    s === "pending_payment"
      ? {
          reason: "order_not_paid",
          // Named by its id: "cancel it instead" alone sent round 3's model looking for a
          // capability ("cancel the order I placed today", 3 calls to the wrapper's 1).
          message: `Nothing was paid yet; ${what} does not apply (cancel_unpaid_order cancels it)`,
        }
      : s === "cancelled"
        ? { reason: "order_cancelled", message: `The order is cancelled; ${what} does not apply` }
        : null;

  const refundOnly: AfterSalesPath =
    s === "paid"
      ? refunded >= order.total
        ? {
            kind: "refund_only",
            eligible: false,
            reason: "already_refunded",
            message: "The order was already refunded in full",
          }
        : {
            kind: "refund_only",
            eligible: true,
            message: "Not shipped yet: the payment can be refunded without a return",
          }
      : {
          kind: "refund_only",
          eligible: false,
          ...(notYet("a refund") ?? {
            reason: "order_already_shipped",
            message:
              s === "shipped"
                ? "The order is in transit: refund-only is only possible before shipment; once it is delivered, request a return and refund"
                : "The order was delivered: refund-only is only possible before shipment; request a return and refund instead",
          }),
        };

  // Lines an earlier return or exchange settled are not offered again (the shop refuses them).
  const open = openItems(order);
  const settled = settledItems(order);
  const settledWords = order.items
    .flatMap((i) => {
      const x = settled.get(i.id);
      return x ? [settledSentence(i, x)] : [];
    })
    .join("; ");
  const returnRefund: AfterSalesPath =
    s === "delivered"
      ? windowOpen
        ? open.length
          ? {
              kind: "return_refund",
              eligible: true,
              message: `Items can be returned for a refund until ${day(until as string)}: ${open.map((i) => i.name).join(", ")}${settledWords ? ` (not again: ${settledWords})` : ""}`,
            }
          : {
              kind: "return_refund",
              eligible: false,
              reason: "nothing_left_to_return",
              message: `Nothing is left to return: ${settledWords}`,
            }
        : {
            kind: "return_refund",
            eligible: false,
            reason: "return_window_closed",
            message: `The return window ${closed}`,
          }
      : {
          kind: "return_refund",
          eligible: false,
          ...(notYet("a return") ?? {
            reason: "order_not_delivered",
            message:
              s === "shipped"
                ? "The order is still in transit: a return is possible once it is delivered"
                : // Not "use refund-only instead": that sent a model wanting one item back to a
                  // cancellation of the whole order (refund-only's own line says it is whole).
                  "Not shipped yet: a return is possible once delivered",
          }),
        };

  const exchangeable = open.filter((i) => i.exchangeable);
  // A line exchanged before was exchangeable; a settled line's own flag may already say no.
  const exchangedBefore = order.items.some(
    (i) => settled.get(i.id)?.how === "exchanged" || (i.exchangeable && settled.has(i.id)),
  );
  const exchange: AfterSalesPath =
    s !== "delivered"
      ? {
          kind: "exchange",
          eligible: false,
          ...(notYet("an exchange") ?? {
            reason: "order_not_delivered",
            message: "An exchange is possible only after delivery",
          }),
        }
      : !windowOpen
        ? {
            kind: "exchange",
            eligible: false,
            reason: "return_window_closed",
            message: `The exchange window ${closed}`,
          }
        : exchangeable.length
          ? {
              kind: "exchange",
              eligible: true,
              message: `Exchangeable: ${exchangeable.map((i) => i.name).join(", ")}`,
            }
          : exchangedBefore
            ? {
                kind: "exchange",
                eligible: false,
                reason: "nothing_left_to_exchange",
                message: `Nothing is left to exchange: ${settledWords}`,
              }
            : {
                kind: "exchange",
                eligible: false,
                reason: "item_not_exchangeable",
                message: "No item of this order can be exchanged",
              };

  const shippingRefund: AfterSalesPath =
    order.shipping_difference > 0 && ["paid", "shipped", "delivered"].includes(s)
      ? {
          kind: "shipping_refund",
          eligible: true,
          message: `The customer overpaid shipping by ${money(order.shipping_difference)}; the shop owes it back, as a shipping refund`,
        }
      : {
          kind: "shipping_refund",
          eligible: false,
          reason: "no_shipping_difference",
          // What a shipping refund is, said with the no (set CK: "no shipping difference to
          // refund" of a late parcel sent the model to read the action and search to tell why).
          message: "No shipping overcharge to refund on this order",
        };

  return [refundOnly, returnRefund, exchange, shippingRefund];
}

/**
 * A line with what may be done with it now, beside what it is; `why_not` is the line's own reason
 * when a flag is false for it alone (settled before, a product the shop does not exchange), led by
 * the flags it explains ("exchangeable: product not exchangeable"): a flag false for the order's
 * reason is said once in `items_why_not`, never under another flag's reason.
 */
export type ItemNow = Omit<ShopOrderItem, "exchangeable"> & {
  returnable: boolean;
  exchangeable: boolean;
  why_not?: string;
};

/** The order's reason a path is closed to every line, in a few words. */
function orderWords(path: AfterSalesPath | undefined, order: ShopOrder): string | undefined {
  switch (path?.reason) {
    case "order_not_paid":
      return "not paid";
    case "order_cancelled":
      return "order cancelled";
    case "order_not_delivered":
      return order.status === "shipped" ? "not delivered yet" : "not shipped yet";
    case "return_window_closed":
      return order.returns_until ? `window closed ${day(order.returns_until)}` : "no return window";
    default:
      // The other reasons are the lines' own (settled, not exchangeable), said on each line.
      return path && !path.eligible ? path.message : undefined;
  }
}

/**
 * The order's paths and each line's share of them, from one evaluation: a line is returnable
 * or exchangeable now only when the order's path is open and the line is among those it names
 * (not settled before; for an exchange, a product the shop exchanges). The legacy line's own
 * `exchangeable` is the product's policy, not what may be done now: shown beside "exchange: no"
 * it read as a contradiction (an exchanged tee said `exchangeable: true`).
 *
 * Every false flag says why (issue 23: "returnable: false" on an in-transit line left the model to
 * find the order's message): a line's own reason on the line (`why_not`), the order's reason once
 * for all its lines (`items_why_not`, naming the flags it closes), never repeated per line. A
 * lasting reason wins over a passing one: a mug in transit says it is not exchangeable at all.
 */
export function afterSalesNow(
  order: ShopOrder,
  now = new Date(),
): { paths: AfterSalesPath[]; items: ItemNow[]; items_why_not?: string } {
  const paths = afterSalesPaths(order, now);
  const path = (kind: AfterSalesKind) => paths.find((p) => p.kind === kind);
  const settled = settledItems(order);
  const closedFor = { returnable: false, exchangeable: false };
  const items = order.items.map(({ exchangeable, status, ...line }) => {
    const how = settled.get(line.id)?.how;
    const returnable = !how && path("return_refund")?.eligible === true;
    const canExchange = !how && exchangeable && path("exchange")?.eligible === true;
    // Each reason names the column it explains: "product not exchangeable" alone beside
    // "returnable: false" read as the reason the lamp could not be returned (it had not shipped).
    const why_not = how
      ? `returnable, exchangeable: already ${how}`
      : exchangeable
        ? undefined
        : "exchangeable: product not exchangeable";
    if (!returnable && !how) closedFor.returnable = true;
    if (!canExchange && !why_not) closedFor.exchangeable = true;
    return {
      ...line,
      returnable,
      exchangeable: canExchange,
      ...(status ? { status } : {}),
      ...(why_not ? { why_not } : {}),
    };
  });
  const words = {
    returnable: closedFor.returnable ? orderWords(path("return_refund"), order) : undefined,
    exchangeable: closedFor.exchangeable ? orderWords(path("exchange"), order) : undefined,
  };
  const items_why_not =
    words.returnable && words.returnable === words.exchangeable
      ? `returnable, exchangeable: ${words.returnable}`
      : (["returnable", "exchangeable"] as const)
          .flatMap((flag) => (words[flag] ? [`${flag}: ${words[flag]}`] : []))
          .join("; ") || undefined;
  return { paths, items, ...(items_why_not ? { items_why_not } : {}) };
}
