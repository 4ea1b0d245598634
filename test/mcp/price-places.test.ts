import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Things named by their place in the price order ("the second cheapest product") and a count
 * before the price word ("buy 2 cheapest mugs"), started from the words in one call: played, the
 * second cheapest took the cheapest, and the count made "fits 1: the mug; ask which one".
 */
describe("price places and counts in the words (MCP over HTTP, real gateway and legacy service)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());

  const preview = async (intent: string) =>
    (await w.connect(w.keys.alice)).callTool({
      name: "start_action",
      arguments: { capability: "checkout", intent, dry_run: true },
    });

  it("'the second most expensive product' is that one, said so; 'the second cheapest' asks which of the tees at that price", async () => {
    const second = await preview("Buy the second most expensive product");
    expect((sc(second).from_words as Json).items).toBe("1 × prod_headphones");
    expect(text(second)).toContain("the 2nd dearest of");
    const tees = await preview("Buy the second cheapest product");
    expect(sc(tees).from_words).toBeUndefined();
    expect(text(tees)).toMatch(/prod_tee.*ask the user which one/);
  });

  it("'buy 2 cheapest mugs' and 'buy 2 of the cheapest mugs' are two of the cheapest mug", async () => {
    for (const intent of ["Buy 2 cheapest mugs", "Buy 2 of the cheapest mugs"])
      expect((sc(await preview(intent)).from_words as Json).items).toBe("2 × prod_mug");
  });

  it("'the cheapest shipping' picks the cheapest method, said so; the lamp is still the lamp (set J, task 2)", async () => {
    const lamp = await preview("Buy one Desk Lamp, the cheapest shipping to my office, pay from my balance.");
    const words = sc(lamp).from_words as Json;
    expect(words).toMatchObject({ items: "1 × prod_lamp", shipping_method: "standard" });
    expect(text(lamp)).toContain("cheapest of 3 available");
    expect(text(lamp)).not.toContain("missing: shipping_method");
    // A method the words name wins over a price end on another noun (a review: "the cheapest
    // mug with express shipping" took standard).
    const mug = await preview("Buy the cheapest mug with express shipping to my office, pay by card.");
    expect(sc(mug).from_words as Json).toMatchObject({ shipping_method: "express" });
    // Named by its own word, no price end: that method.
    const fast = await preview("Buy one Desk Lamp, ship it express to my office, pay by card.");
    expect((sc(fast).from_words as Json).shipping_method).toBe("express");
    // A price end turned down names nothing.
    const notCheapest = await preview("Buy one Desk Lamp, not the cheapest shipping, to my office, by card.");
    expect((sc(notCheapest).from_words as Json | undefined)?.shipping_method).toBeUndefined();
  });
});
