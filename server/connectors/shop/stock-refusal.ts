import type { ValidationError } from "../sdk/outcome";
import type { ShopAdapter, ShopProduct } from "./shop-adapter";

/** A product's name without its variant ("Logo Tee (XL)" → "Logo Tee"): what its variants share. */
const baseName = (name: string) => name.replace(/\s*\([^()]*\)\s*$/, "").trim();

/**
 * The error of a line the shop cannot fill: sold out (or fewer in stock than asked), with the
 * variants of the same product that are in stock, so the user can choose again at once. Marked
 * `choice_closed`: a start whose words named it ends there, holding nothing (no order, no
 * reservation, nothing to cancel). Issue 23: "Only 0 of … in stock" left the action open with the
 * cart offered as items, and the model spent a call on cancel_action.
 */
export async function stockRefusal(
  adapter: ShopAdapter,
  index: number,
  product: ShopProduct,
  available: number,
  quantity: number,
): Promise<ValidationError> {
  const base = baseName(product.name);
  const same = (await adapter.products({ q: base, per_page: 20 })).data.filter(
    (p) => p.id !== product.id && p.stock > 0 && baseName(p.name) === base,
  );
  const short = available > 0 ? `only ${available} in stock (asked ${quantity})` : "sold out";
  const instead = same.length
    ? `in stock: ${same.map((p) => `${p.name} \`${p.id}\``).join(", ")}`
    : "no other variant in stock";
  return {
    // Sold out, the product is what the user chooses again; short, how many.
    field: `items.${index}.${available > 0 ? "quantity" : "product_id"}`,
    code: "insufficient_stock",
    message: `${product.name} is ${short}; ${instead}`,
    choice_closed: true,
  };
}
