import { describe, expect, it } from "vitest";
import { readWords } from "@/server/connectors/sdk/negated-words";

/**
 * After "or", a place or state of its own ("or in transit") is no longer denied: set CF's "my
 * orders not yet shipped or in transit" left out the one order on its way, the one the user
 * wanted most. The same preposition the negation reached past goes on denying.
 */
describe("readWords: what an 'or' goes on denying", () => {
  const denied = (text: string) =>
    readWords(text)
      .filter((w) => w.denied)
      .map((w) => w.raw);

  it.each([
    ["my orders not yet shipped or in transit", ["shipped"]],
    ["tickets that aren't resolved or with Sid", ["resolved"]],
    ["orders not shipped or delivered", ["shipped", "delivered"]],
    ["orders not in transit or in the warehouse", ["transit", "warehouse"]],
    ["neither shipped nor in transit", ["shipped", "transit"]],
    ["orders that were not paid or refunded", ["paid", "refunded"]],
  ])("%s", (text, expected) => {
    expect(denied(text)).toEqual(expected);
  });
});
