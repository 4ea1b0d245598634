import { z } from "zod";
import type { ShopAddress } from "./shop-adapter";

/** The address field of every shop capability that asks for one. */
export const addressIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .describe("Id or label ('Office', 'Home') of one of options.addresses");

/**
 * Finds an address by its id. A label ("Office", "Home") is read by the engine, from the node's
 * options.addresses, the same way as every other choice (server/engine/choice-words.ts).
 */
export function matchAddress(addresses: ShopAddress[], wanted: string): ShopAddress | undefined {
  const w = wanted.trim().toLowerCase();
  return addresses.find((a) => a.id.toLowerCase() === w);
}

/** The whole address on one line, as a person checks it: "Office: 1 Main St, 10115 Berlin, DE". */
export function shopAddressLine(
  a: Pick<ShopAddress, "label" | "line1" | "city" | "postal_code" | "country">,
): string {
  const place = [a.postal_code, a.city].filter(Boolean).join(" ");
  return `${a.label}: ${[a.line1, place, a.country].filter(Boolean).join(", ")}`;
}
