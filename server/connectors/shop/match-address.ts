import { z } from "zod";
import type { ShopAddress } from "./shop-adapter";

/** The address field of every shop capability that asks for one. */
export const addressIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .describe("Id or label ('Office', 'Home') of one of options.addresses");

/** Finds an address by id or by its label ("Office", "Home"), as people say it. */
export function matchAddress(addresses: ShopAddress[], wanted: string): ShopAddress | undefined {
  const w = wanted.trim().toLowerCase();
  return (
    addresses.find((a) => a.id.toLowerCase() === w) ?? addresses.find((a) => a.label.toLowerCase() === w)
  );
}
