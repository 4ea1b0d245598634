import { money } from "../sdk/markdown";
import type { ShopAdapter, ShopQuote } from "./shop-adapter";

/** Addresses a cart's shipping is quoted to: one quote call each, and one column each. */
const MAX_ADDRESSES = 3;

const DAYS = (n: number) => (n === 0 ? "same day" : n === 1 ? "1 day" : `${n} days`);

/**
 * What shipping these items would cost, one row per method and one column per saved address
 * ("$12.00 · 2 days · $73.00 in all", the subtotal with it: "what would my cart cost with
 * shipping to my home?" is then read off one cell, issue 23, no sum left to the model): prices depend on the items and the address, so "what would my cart
 * cost?" needs them beside the subtotal (a model read the cart and the checkout form and found
 * "each has its own price" but no price). A method an address cannot have is "—". Empty when
 * the customer has no address or the shop quotes none.
 */
export async function cartShipping(
  shop: ShopAdapter,
  customerId: string,
  items: Array<{ product_id: string; quantity: number }>,
  /** The items' subtotal in minor units, added to each price; absent: prices alone. */
  subtotal?: number,
): Promise<Array<Record<string, string>>> {
  if (!items.length) return [];
  const addresses = (await shop.addresses(customerId)).slice(0, MAX_ADDRESSES);
  // Two addresses of one label and city are told apart by their ids.
  const twice = (a: (typeof addresses)[number]) =>
    addresses.filter((b) => b.label === a.label && b.city === a.city).length > 1;
  const quoted = await Promise.all(
    addresses.map(async (a) => {
      const column = `${a.label} (${twice(a) ? a.id : a.city})`;
      // A quote that fails leaves its column "—": the cart itself is still the answer.
      const res = await shop
        .quotes({
          customer_id: customerId,
          address_id: a.id,
          items: items.map((i) => ({ product_id: i.product_id, quantity: i.quantity })),
        })
        .catch(() => null);
      return { column, quotes: res?.ok ? res.quotes : [] };
    }),
  );
  const methods: ShopQuote["method"][] = ["standard", "express", "same_day"];
  return methods
    .filter((m) => quoted.some((q) => q.quotes.some((x) => x.method === m)))
    .map((method) => {
      const row: Record<string, string> = { method };
      for (const { column, quotes } of quoted) {
        const quote = quotes.find((x) => x.method === method);
        const total =
          typeof subtotal === "number" && Number.isInteger(quote?.price)
            ? ` · ${money(subtotal + (quote?.price ?? 0))} in all`
            : "";
        row[column] = quote ? `${money(quote.price)} · ${DAYS(quote.eta_days)}${total}` : "—";
      }
      return row;
    });
}
