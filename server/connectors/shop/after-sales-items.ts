import type { ShopOrder, ShopOrderItem } from "./shop-adapter";

export type SettledHow = "returned" | "exchanged";

/** One earlier return or exchange of a line, as the legacy system recorded it. */
export interface SettledItem {
  how: SettledHow;
  /** The refund record (return or exchange) that settled it, when the order lists one. */
  record?: string;
  on?: string;
}

/**
 * Which lines earlier returns and exchanges already settled: the order's `refunds` list (a return
 * names its `item_ids`, an exchange its `item_id`) and each line's own `status`. Either source
 * is enough; a line settled once cannot be returned or exchanged again (the shop refuses it).
 */
export function settledItems(order: ShopOrder): Map<string, SettledItem> {
  const out = new Map<string, SettledItem>();
  for (const r of order.refunds ?? []) {
    const how: SettledHow | null =
      r.kind === "return" ? "returned" : r.kind === "exchange" ? "exchanged" : null;
    if (!how) continue;
    const d = r.details ?? {};
    const ids = how === "returned" ? d.item_ids : [d.item_id];
    if (!Array.isArray(ids)) continue;
    for (const id of ids)
      if (typeof id === "string") out.set(id, { how, record: r.id, on: r.created_at?.slice(0, 10) });
  }
  for (const i of order.items)
    if ((i.status === "returned" || i.status === "exchanged") && !out.has(i.id))
      out.set(i.id, { how: i.status });
  return out;
}

/** The lines no return or exchange has settled yet. */
export function openItems(order: ShopOrder): ShopOrderItem[] {
  const settled = settledItems(order);
  return order.items.filter((i) => !settled.has(i.id));
}

/** "Tee (M) was already exchanged on 2026-11-28 (ref_x)" — the reason in words, for the agent and the person. */
export function settledSentence(item: Pick<ShopOrderItem, "id" | "name">, s: SettledItem): string {
  return `${item.name} (${item.id}) was already ${s.how}${s.on ? ` on ${s.on}` : ""}${s.record ? ` (${s.record})` : ""}`;
}
