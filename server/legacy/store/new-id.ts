import { randomBytes } from "node:crypto";

/** Stripe-style ids: `pay_3f9a0c1d2e4b`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString("hex")}`;
}
