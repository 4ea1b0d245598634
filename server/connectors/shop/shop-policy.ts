/**
 * The shop's money in option rows: integer US cents under these keys (prices, totals, what a
 * line refunds, a coupon's discount, the balance available), as the legacy API sends them.
 * `shipping` is an order's shipping price in its totals (a string under it, a shipping method
 * or a summary line, is not money: only integers are formatted); `max_refund` is after-sales'
 * ceiling. Both were shown bare to agents (round 3: "shipping 1200", "max_refund: 6100"); so was
 * an order's `refunded` in a listing ("8900" beside "$12.00"). Listings read these keys too.
 */
export const SHOP_MONEY = {
  keys: [
    "amount",
    "available",
    "balance",
    "discount",
    "line_total",
    "max_refund",
    "paid_not_refunded",
    "price",
    "refundable",
    "refunded",
    "shipping",
    "shipping_difference",
    "shipping_price",
    "shipping_owed_to_customer",
    "subtotal",
    "total",
    "unit_price",
  ],
  currency: "USD",
};

/** What every shop capability shares: open to every role, and the legacy shop's latency budget. */
export const SHOP_POLICY = {
  roles: ["member", "support", "admin"] as Array<"member" | "support" | "admin">,
  retry: { attempts: 3, backoffMs: 100 },
  timeoutMs: 3000,
};
