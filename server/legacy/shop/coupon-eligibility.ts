export interface CouponRow {
  code: string;
  description: string;
  discount: number;
  min_subtotal: number;
}

export interface CouponEligibility {
  code: string;
  description: string;
  discount: number;
  min_subtotal: number;
  eligible: boolean;
  reason: string | null;
}

function money(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** A coupon applies when the subtotal reaches its minimum; the reason says why not. */
export function couponEligibility(coupon: CouponRow, subtotal: number): CouponEligibility {
  const eligible = subtotal >= coupon.min_subtotal;
  return {
    code: coupon.code,
    description: coupon.description,
    discount: coupon.discount,
    min_subtotal: coupon.min_subtotal,
    eligible,
    reason: eligible
      ? null
      : `subtotal ${money(subtotal)} is below the minimum of ${money(coupon.min_subtotal)} USD`,
  };
}
