import type Database from "better-sqlite3";
import { requireProduct } from "./catalog-routes";

export interface PricedLine {
  product_id: string;
  name: string;
  quantity: number;
  unit_price: number;
  exchangeable: boolean;
  stock: number;
}

export interface PricedItems {
  lines: PricedLine[];
  subtotal: number;
  weightGrams: number;
}

/** Resolves requested items against the catalog (404 for unknown products); merges repeated products. */
export function priceItems(
  db: Database.Database,
  tenantId: string,
  items: readonly { product_id: string; quantity: number }[],
): PricedItems {
  const merged = new Map<string, number>();
  for (const i of items) merged.set(i.product_id, (merged.get(i.product_id) ?? 0) + i.quantity);
  const lines: PricedLine[] = [];
  let subtotal = 0;
  let weightGrams = 0;
  for (const [productId, quantity] of merged) {
    const p = requireProduct(db, tenantId, productId);
    lines.push({
      product_id: p.id,
      name: p.name,
      quantity,
      unit_price: p.price,
      exchangeable: p.exchangeable,
      stock: p.stock,
    });
    subtotal += p.price * quantity;
    weightGrams += p.weight_grams * quantity;
  }
  return { lines, subtotal, weightGrams };
}
