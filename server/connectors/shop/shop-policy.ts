/**
 * The shop's money in option rows: integer US cents under these keys (prices, totals, what a
 * line refunds, a coupon's discount, the balance available), as the legacy API sends them.
 */
export const SHOP_MONEY = {
  keys: [
    "amount",
    "available",
    "balance",
    "discount",
    "line_total",
    "price",
    "refundable",
    "shipping_price",
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
