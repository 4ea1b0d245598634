import type { ShopAdapter, ShopOrder } from "./shop-adapter";

const DAY = 86_400_000;

/**
 * When an order on its way should arrive, on one line, from what the shop says: its shipping
 * method's quoted days (the shipping quote, as checkout quoted "about N days after payment")
 * counted from its payment (or, unpaid on record, its shipping), said as that, and late by how
 * many days where the date is past: "about 2026-12-05, 1 day late (express: 2 days from payment,
 * as quoted; the carrier gives no date)". Played: "when will my headphones arrive?" read the
 * order (latest scan, no date) and then its tracking page hoping for one: two calls for a date
 * neither gave. Only a shipped, undelivered order costs the quote's read; null otherwise, or
 * when the shop quotes no such method any more, or the read fails (the order stands without it).
 */
export async function expectedDelivery(
  adapter: ShopAdapter,
  order: ShopOrder,
  now: number = Date.now(),
): Promise<string | null> {
  if (order.status !== "shipped" || !order.address?.id) return null;
  const from = order.paid_at
    ? { at: order.paid_at, what: "payment" }
    : order.shipped_at
      ? { at: order.shipped_at, what: "shipping" }
      : null;
  const start = from ? Date.parse(from.at) : Number.NaN;
  if (!from || Number.isNaN(start)) return null;
  try {
    const quoted = await adapter.quotes({
      customer_id: order.customer_id,
      address_id: order.address.id,
      items: order.items.map((i) => ({ product_id: i.product_id, quantity: i.quantity })),
    });
    const days = quoted.ok
      ? quoted.quotes.find((q) => q.method === order.shipping_method)?.eta_days
      : undefined;
    if (typeof days !== "number") return null;
    const expected = new Date(start + days * DAY).toISOString().slice(0, 10);
    // Whole days by the calendar (UTC, as every date the order shows): due today is not late.
    const late = Math.round(
      (Date.parse(new Date(now).toISOString().slice(0, 10)) - Date.parse(expected)) / DAY,
    );
    const state =
      late > 0 ? `, ${late} ${late === 1 ? "day" : "days"} late` : late === 0 ? ", due today" : "";
    return `about ${expected}${state} (${order.shipping_method}: ${days} ${days === 1 ? "day" : "days"} from ${from.what}, as quoted; the carrier gives no date)`;
  } catch {
    return null;
  }
}
