import { formatMoney } from "../sdk/render-decision-summary";
import type { ShopCoupon } from "./shop-adapter";

/** The coupons that apply to a subtotal, as the agent offers them. */
export function eligibleCoupons(coupons: ShopCoupon[]) {
  return coupons
    .filter((c) => c.eligible)
    .map((c) => ({ code: c.code, label: c.description, discount: c.discount }));
}

export type Coupon = ReturnType<typeof eligibleCoupons>[number];

/** The best coupon that applies, where none is used: its code and what it would take off. */
export function unusedCoupon(
  used: string | null,
  coupons: Coupon[] | undefined,
): { coupon_not_used?: string } {
  if (used || !coupons?.length) return {};
  const best = coupons.reduce((a, b) => (b.discount > a.discount ? b : a));
  return {
    coupon_not_used: `${best.code} would take ${formatMoney(best.discount)} off; not applied: the user did not ask for it`,
  };
}
