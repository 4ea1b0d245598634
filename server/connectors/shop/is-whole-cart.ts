type Line = { product_id: string; quantity: number };

/**
 * Whether an order's lines are the customer's whole cart: the same products in the same
 * quantities, in any order. Only such an order is the cart checked out, whose items leave the
 * cart once paid; two mugs bought beside a cart that also holds two mugs leave it as it is.
 */
export function isWholeCart(lines: readonly Line[], cart: readonly Line[]): boolean {
  if (!lines.length || lines.length !== cart.length) return false;
  const inCart = new Map(cart.map((c) => [c.product_id, c.quantity]));
  return lines.every((l) => inCart.get(l.product_id) === l.quantity);
}
