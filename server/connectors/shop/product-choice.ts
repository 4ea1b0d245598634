import type { ShopProduct } from "./shop-adapter";

/** How many products an empty cart's first step offers (the cheapest). */
export const OFFERED_PRODUCTS = 8;

/**
 * A product as a choice for items: its price (as the cart's lines carry it), and a sold-out one
 * says so, so "the cheapest" never names what cannot be bought.
 */
export function productChoice(p: ShopProduct) {
  return {
    product_id: p.id,
    name: p.name,
    unit_price: p.price,
    ...(p.stock > 0 ? {} : { possible: "sold out" }),
  };
}
