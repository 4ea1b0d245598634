import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * A list a node offers is named by the words people use for it, as its connector declares them
 * (the shop's cart is a basket too): played, "basket" bought nothing from the cart and "what is
 * in my basket?" started paying an old order.
 */
describe("the words a connector declares for a list (MCP over HTTP, real gateway and legacy service)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const start = async (intent: string) =>
    sc(
      await (await w.connect(w.keys.alice)).callTool({
        name: "start_action",
        arguments: { intent, dry_run: true },
      }),
    );

  it("'basket' is the cart, as 'cart' is", async () => {
    const cart = await start("Buy everything in my cart");
    for (const intent of ["Buy everything in my basket", "Check out my basket", "What is in my basket?"]) {
      const out = await start(intent);
      expect(out.capability).toBe("checkout");
      expect((out.from_words as Json | undefined)?.items).toBe((cart.from_words as Json).items);
    }
  });
});
