import type { SumTerm } from "../sdk/decision-summary";

/** A sum as a summary fact declares it (`as: "sum"`): terms in cents, negative to subtract. */
export type SumFact = { terms: Array<{ label: string; amount: number }>; total: number };

/**
 * How an order's money adds up, in one line's terms: items + shipping − coupon (− what was
 * refunded before) = total. Round 23's player saw "shipping ($5.00) included" beside a $5.00
 * coupon discount and added the sum again; one line that shows the arithmetic leaves nothing
 * to add. A zero discount or refund is left out (it changes nothing).
 */
export function orderSum(p: {
  subtotal: number;
  shipping: number;
  discount: number;
  coupon?: string | null;
  refunded?: number;
}): SumFact {
  const terms = [
    { label: "items", amount: p.subtotal },
    { label: "shipping", amount: p.shipping },
    ...(p.discount ? [{ label: p.coupon ? `coupon ${p.coupon}` : "discount", amount: -p.discount }] : []),
    ...(p.refunded ? [{ label: "refunded before", amount: -p.refunded }] : []),
  ];
  return { terms, total: terms.reduce((s, t) => s + t.amount, 0) };
}

/** The same sum as the renderer's terms (minor units). */
export function sumTerms(sum: SumFact): SumTerm[] {
  return sum.terms.map((t) => ({ label: t.label, minor: t.amount }));
}
