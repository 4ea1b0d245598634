import { z } from "zod";
import type { FieldWords } from "../sdk/define-capability";

/**
 * Checkout's `from_cart`: whether the order is bought from the cart, so its lines leave the cart
 * once paid. Played: "buy just the Logo Tees L from my cart" left the tees in the cart (only the
 * whole cart left it), and the model spent two calls learning whether the order had taken them.
 * Unset, the rule stays: the whole cart leaves it; two mugs bought beside it leave it as it is.
 */
export const fromCartField = z
  .boolean()
  .optional()
  .describe(
    'true when the user buys these items from their cart ("from my cart"): once paid they are taken out of it; each item must be in the cart, at most its quantity there. Unset: only an order that is the whole cart empties it; other orders leave the cart as it is',
  );

/**
 * The words that set it. The engine's reader of a yes/no field by its name (flag-words.ts) cannot
 * read this one: "from" is no word it keeps, and "cart" alone is also "(not what is in the cart)",
 * set F's words for an order beside the cart. Only "from …cart" asks for it ("not from my cart"
 * refuses); "keep my cart" keeps even the whole cart in it.
 */
export const FROM_CART_WORDS: FieldWords = {
  values: [
    {
      value: true,
      words: [
        "from my cart",
        "from the cart",
        "from my basket",
        "from the basket",
        "out of my cart",
        "out of the cart",
      ],
    },
    {
      value: false,
      words: [
        "keep my cart",
        "keep my cart as it is",
        "leave my cart as it is",
        "keep the cart",
        "leave my cart",
        "leave the cart",
        "keep them in my cart",
        "keep it in my cart",
      ],
    },
  ],
  defaultMeans: "only an order of the whole cart empties it",
};
