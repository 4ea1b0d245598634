/** A line of the caller's cart as the cart's capabilities offer and keep it. */
export interface CartLine {
  product_id: string;
  name: string;
  quantity: number;
  unit_price: number;
}

/** The cart's lines as choices: what removal, a new quantity or emptying applies to. */
export const cartLine = (l: CartLine): CartLine => ({
  product_id: l.product_id,
  name: l.name,
  quantity: l.quantity,
  unit_price: l.unit_price,
});
