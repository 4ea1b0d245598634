import type { ShownField, SummaryDeclaration } from "../sdk/decision-summary";
import { SHOP_MONEY } from "./shop-policy";

const MONEY = (label: string): ShownField => ({ label, as: "money" });

/**
 * How the shop's summaries show their keys: labels, which numbers are money (integer cents in
 * `currency`), which objects are a choice shown by its label. Declared here, by the connector
 * that knows what its numbers are, so no renderer has to guess from a key's name.
 */
export const SHOP_SUMMARY_FIELDS: Record<string, ShownField> = {
  // Every key the shop declares money is money here too, unless declared below: a summary's
  // `total` reached the agent as bare cents ("total: 15650") when only this list was kept.
  ...Object.fromEntries(
    SHOP_MONEY.keys.map((key) => [
      key,
      MONEY(`${key[0]?.toUpperCase()}${key.slice(1).replaceAll("_", " ")}`),
    ]),
  ),
  title: { label: "Title", as: "hidden" },
  amount_label: { label: "Amount label", as: "hidden" },
  currency: { label: "Currency", as: "hidden" },
  amount: MONEY("Amount"),
  subtotal: MONEY("Subtotal"),
  discount: MONEY("Discount"),
  shipping_price: MONEY("Shipping price"),
  balance_before: MONEY("Balance before"),
  balance_after: MONEY("Balance after"),
  items: {
    label: "Items",
    items: {
      // A returned line's refund: "amount: 3600" reached the person's screen as bare cents.
      id: { label: "Line" },
      product_id: { label: "Product" },
      name: { label: "Item" },
      quantity: { label: "Quantity", as: "quantity" },
      unit_price: MONEY("Unit price"),
      line_total: MONEY("Line total"),
      amount: MONEY("Refund"),
    },
  },
  sum: { label: "Sum", as: "sum" },
  refund_sum: { label: "Refund", as: "sum" },
  refund_part: { label: "Refund" },
  // What the order becomes once approved: cancelled, or still shipping with every item.
  order_after: { label: "Order after" },
  shipping_method: { label: "Shipping", as: "choice" },
  shipping: { label: "Shipping" },
  address: { label: "Ship to", as: "address" },
  payment_method: { label: "Pay with", as: "choice" },
  delivery_estimate: { label: "Delivery" },
  refund_to: { label: "Money goes to" },
  coupon: { label: "Coupon" },
  coupon_not_used: { label: "Coupon not used" },
  shipping_overpaid: { label: "Shipping" },
  cart: { label: "Your cart" },
  cart_after: { label: "Cart after" },
  cart_subtotal_after: MONEY("Cart items after (before shipping)"),
  reason: { label: "Reason" },
  kind: { label: "What", as: "choice" },
  order_id: { label: "Order" },
  new_order: { label: "New order" },
  // Each one as sent: the person approves what goes to the shop, not a count of it (set AV: "Photos
  // or files: 1" for the user's written description of the chip).
  evidence: { label: "Evidence (photos or notes)" },
  item: { label: "Item" },
  replacement: { label: "Replacement" },
  replacement_product_id: { label: "Replacement id" },
  from: { label: "From" },
  to: { label: "To" },
  address_id: { label: "Address id" },
  order_updated_at: { label: "Order version", internal: true },
};

/** A shop summary's declaration: its title and headline amount, money in the facts' `currency`. */
export function shopSummary(title: string, headline?: string): SummaryDeclaration {
  return {
    title,
    ...(headline ? { headline: { key: "amount", label: headline } } : {}),
    currency: { key: "currency" },
    fields: SHOP_SUMMARY_FIELDS,
  };
}
