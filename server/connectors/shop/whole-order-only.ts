import { money } from "../sdk/markdown";
import type { Alternative, ValidationError } from "../sdk/outcome";
import { partOfOrderWords } from "./part-of-order-words";
import type { ShopOrder, ShopOrderItem } from "./shop-adapter";

/** Whether an order holds more than one thing (lines, or a line of several). */
export function holdsSeveral(order: ShopOrder): boolean {
  return order.items.length > 1 || order.items.some((i) => i.quantity > 1);
}

/**
 * What refund-only does to a paid order not yet shipped, in a few words, where the order holds
 * several things: the order page's "refund only: yes" read as one item cancellable (played: "in
 * my lamp order I only want to cancel the lamp" started a request the user had to decline).
 */
export function wholeOrderWords(order: ShopOrder): string | undefined {
  return order.status === "paid" && holdsSeveral(order)
    ? "cancels the whole order; no single item before delivery"
    : undefined;
}

const named = (items: ShopOrderItem[]) => items.map((i) => i.name).join(" and ");

/**
 * A cancellation of the whole order asked for part of it — by the user's words ("cancel the lamp
 * and keep the mug") or by `item_ids` sent — is refused before anyone is asked to approve it: the
 * shop cancels an order not yet shipped whole, never item by item. The refusal says what is
 * possible (the whole order now, an item by a return once delivered) and to ask the user; the
 * person approving never sees a change the user did not ask for. Undefined when nothing asks
 * for part of the order, or the refund is a part of the payment (not a cancellation).
 */
export function partOfWholeOrder(
  order: ShopOrder,
  values: Record<string, unknown>,
  /** What cancelling the whole order refunds; undefined when the refund is not a cancellation. */
  wholeRefund: number | undefined,
): ValidationError | undefined {
  if (wholeRefund === undefined || order.status !== "paid" || !holdsSeveral(order)) return undefined;
  const ids = Array.isArray(values.item_ids) ? (values.item_ids as unknown[]) : undefined;
  const byIds = ids?.length
    ? order.items.filter((i) => ids.includes(i.id)).length < order.items.length ||
      ids.some((id) => !order.items.some((i) => i.id === id))
    : false;
  const words = typeof values.reason === "string" ? partOfOrderWords(order, values.reason) : undefined;
  if (!byIds && !words) return undefined;
  const asked = byIds ? order.items.filter((i) => ids?.includes(i.id)) : (words?.asked ?? []);
  const what = asked.length ? named(asked) : `${(ids ?? []).join(", ")}`;
  const all = order.items.map((i) => `${i.name} ×${i.quantity}`).join(", ");
  const alternatives: Alternative[] = [
    {
      capability: "after_sales",
      entity_id: order.id,
      description: `Cancel and refund the whole order (${all}), only if the user agrees`,
    },
  ];
  return {
    field: byIds ? "item_ids" : "reason",
    code: "whole_order_only",
    message: `${order.id} has not shipped: an order not yet shipped is cancelled whole (${all}), never one item, so ${what} alone cannot be cancelled now. Possible: cancel and refund the whole order (${money(wholeRefund)}), or return ${what} once delivered. Nothing was requested; ask the user which they want`,
    refused: true,
    alternatives,
  };
}
