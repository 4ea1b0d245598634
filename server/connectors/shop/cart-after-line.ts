import { wholeCartLine } from "./whole-cart-line";

type Line = { product_id: string; name: string; quantity: number };

/** Longest list of items a side of the line shows before it is cut with "…". */
const MAX_ITEMS_TEXT = 80;

/**
 * What the person's screen says happens to their cart when an order is bought from it: the whole
 * cart is "all of it (…), emptied once paid" (whole-cart-line.ts); part of it names what goes and
 * what stays, quantities as they will be: "Logo Tee (L) ×2 taken out once paid; Signpost Mug ×2,
 * Logo Tee (M) ×1 stay". Played: after a partial checkout the cart still listed what was bought,
 * and the model spent two calls learning whether the order had taken it.
 */
export function cartAfterLine(lines: readonly Line[], cart: readonly Line[]): string {
  const bought = new Map(lines.map((l) => [l.product_id, l.quantity]));
  const stay = cart
    .map((c) => ({ ...c, quantity: c.quantity - (bought.get(c.product_id) ?? 0) }))
    .filter((c) => c.quantity > 0);
  if (!stay.length) return wholeCartLine(lines);
  return `${itemsText(lines)} taken out once paid; ${itemsText(stay)} ${stay.length === 1 && stay[0]?.quantity === 1 ? "stays" : "stay"}`;
}

function itemsText(lines: readonly Line[]): string {
  const text = lines.map((l) => `${l.name} ×${l.quantity}`).join(", ");
  return text.length > MAX_ITEMS_TEXT ? `${text.slice(0, MAX_ITEMS_TEXT - 1)}…` : text;
}
