import type { ShopCoupon } from "./shop-adapter";

/** The coupons that apply to a subtotal, as the agent offers them. */
export function eligibleCoupons(coupons: ShopCoupon[]) {
  return coupons
    .filter((c) => c.eligible)
    .map((c) => ({ code: c.code, label: c.description, discount: c.discount }));
}
