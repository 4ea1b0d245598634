import type { Row } from "../sdk/browse-backend";
import type { RouteDefinition } from "../sdk/define-route";
import { money } from "../sdk/markdown";
import { rowsTable } from "../sdk/render-helpers";
import { isOutcome, NOT_FOUND_FOR, outcomePage } from "../sdk/route-pages";
import { cart } from "./shop-records";

/**
 * `shop://coupons`: every coupon, each judged on the caller's cart now, with what one that does
 * not apply still needs. Set AF (issue 23): "Do I have any coupons I could use right now?"
 * searched "my coupons" and found only the checkout form, whose choices list the coupons that
 * apply; the model opened it as a second call. Not a start point: a start point that a word
 * names is opened in place, and "coupon" is also a word of tickets and orders people search
 * ("coupon not applied ticket"); the words "coupons", "my coupons" name this page whole.
 */
export const COUPONS_ROUTE: RouteDefinition = {
  pattern: "shop://coupons",
  title: "Coupons",
  // No word of the cart's here: "coupons for my cart" opens the cart, which says them too.
  description: "Every coupon: whether it applies to what you would buy now, and why not.",
  keywords: ["coupons", "voucher", "discount code", "promo code", "优惠券"],
  async render(_match, backend) {
    const found = await cart(backend);
    if (found === null) return NOT_FOUND_FOR("cart", "mine");
    if (isOutcome(found)) return outcomePage("Coupons", found);
    const subtotal = Number(found.subtotal);
    const items = Array.isArray(found.items) ? found.items.length : 0;
    const applies = (Array.isArray(found.coupons) ? found.coupons : []) as Row[];
    const notYet = (Array.isArray(found.coupons_not_yet) ? found.coupons_not_yet : []) as Row[];
    const rows: Row[] = [
      ...applies.map((c) => ({
        code: c.code,
        label: c.label,
        discount: money(c.discount),
        applies_now: "yes",
      })),
      ...notYet.map((c) => ({
        code: c.code,
        label: c.label,
        discount: money(c.discount),
        applies_now: `no: needs ${money(c.needs)} more`,
      })),
    ];
    const judged = items
      ? `Judged on your cart now (subtotal ${money(subtotal)}): those that apply first.`
      : "Your cart is empty, so none applies now: each applies once an order's subtotal reaches its minimum.";
    return {
      title: "Coupons",
      outcome: "applied",
      markdown: [
        judged,
        rows.length ? rowsTable(rows) : "The shop has no coupons now.",
        'One coupon per order, at checkout: send its code as `coupon_code`, or say "use a coupon" in the request.',
      ].join("\n\n"),
    };
  },
};
