import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * "Order one Travel Backpack and one Logo Tee in size S, …" is one purchase of two lines. Played
 * (set AD): its second line, cut off at "and", was offered as an exchange of a tee
 * ("also asked: 'one Logo Tee in size S' → after_sales"), on start_action and on the form alike.
 */
describe("a list of items after a count is one ask", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const words =
    "Order one Travel Backpack and one Logo Tee in size S, send them to my home with standard shipping, and pay from my balance.";

  it("start_action and the checkout form take both lines and offer nothing else", async () => {
    const alice = await w.connect(w.keys.alice);
    for (const [name, args] of [
      ["start_action", { intent: words }],
      ["submit", { uri: "shop://checkout", fields: { user_words: words } }],
    ] as const) {
      const out = text(await alice.callTool({ name, arguments: args }));
      expect(out, name).toMatch(/items = 1 × prod_backpack, 1 × prod_tee_s/);
      expect(out, name).not.toMatch(/also asked|after_sales/);
    }
  });
});
