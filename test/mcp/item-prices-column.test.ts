import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenize } from "@/server/engine/capability-search";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Set AG (issue 23): "What's the most expensive thing I've ever ordered, and in which order?"
 * took 4–5 calls: the orders listing showed totals, never an item's price, so the models opened
 * orders one by one; and the search read "I've" as a word `ve` and listed records holding it.
 * The listing offers each item's unit price as a column (`?columns=item_prices`, named under the
 * rows), and a contraction's tail is no word. Real MCP client over HTTP and the legacy service.
 */
describe("an order's item prices, one column away; contractions are no words (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("the orders listing names the column, and the column gives each item's unit price and count", async () => {
    const alice = await w.connect(w.keys.alice);
    const listed = text(await alice.callTool({ name: "navigate", arguments: { uri: "shop://orders" } }));
    expect(listed).toMatch(/^More columns .*\bitem_prices\b/m);
    const priced = text(
      await alice.callTool({ name: "navigate", arguments: { uri: "shop://orders?columns=item_prices" } }),
    );
    expect(priced).toMatch(/^\| `ord_paid` \|.*\| Desk Lamp \$320\.00 ×1; Signpost Mug \$18\.00 ×1 \|$/m);
  });

  it("'I've', 'we're', 'you'll' leave no word of their tail", async () => {
    expect(tokenize("the most expensive thing I've ever ordered")).not.toContain("ve");
    expect(tokenize("we're sure you'll like it, I'd say")).not.toEqual(expect.arrayContaining(["re", "ll"]));
    const alice = await w.connect(w.keys.alice);
    const t = text(
      await alice.callTool({
        name: "search",
        arguments: { query: "What's the most expensive thing I've ever ordered?" },
      }),
    );
    expect(t).not.toContain("`ve`");
  });
});
