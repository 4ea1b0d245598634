import { afterSalesPaths } from "./after-sales-eligibility";
import { openItems, settledItems } from "./after-sales-items";
import type { ShopOrder } from "./shop-adapter";

const day = (iso: string) => iso.slice(0, 10);

/** Why nothing of an order can be returned now, by the return path's reason, in a few words. */
const WHY_NOT: Record<string, (o: ShopOrder) => string> = {
  return_window_closed: (o) =>
    o.returns_until ? `window ended ${day(o.returns_until)}` : "no return window",
  order_not_delivered: (o) => (o.status === "shipped" ? "not delivered yet" : "not shipped yet"),
  order_not_paid: () => "not paid",
  order_cancelled: () => "cancelled",
  nothing_left_to_return: () => "every item already returned or exchanged",
};

/**
 * An orders-listing cell saying what of the order can be returned now and until when ("Electric
 * Kettle, Signpost Mug · until 2026-12-30"), or why nothing can ("no · window ended 2026-11-20"),
 * from the same rules the after-sales action applies. Issue 23: "which of my delivered orders can
 * I still return something from, and until when?" read `returns_until` beside an order whose items
 * were settled, and the model opened the orders one by one.
 */
export function returnableNow(order: ShopOrder, now = new Date()): string {
  const path = afterSalesPaths(order, now).find((p) => p.kind === "return_refund");
  if (path?.eligible && order.returns_until) {
    // A line returned or exchanged before is not returned again: named, so the cell is the whole answer.
    const settled = settledItems(order);
    const done = order.items.flatMap((i) => {
      const how = settled.get(i.id)?.how;
      return how ? [`${i.name} already ${how}`] : [];
    });
    const open = openItems(order).map((i) => i.name);
    return `${open.join(", ")} · until ${day(order.returns_until)}${done.length ? ` (not: ${done.join(", ")})` : ""}`;
  }
  const why = path?.reason ? WHY_NOT[path.reason]?.(order) : undefined;
  return `no · ${why ?? path?.message ?? "no return path"}`;
}
