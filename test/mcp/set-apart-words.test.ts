import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * What words set apart from a whole set is left out, in a search and in a start (review after set
 * AM): "all my orders but the cancelled ones" listed only the cancelled order, "every ticket but
 * the closed ones" filtered the tickets by the text "ones", and "buy everything in my cart but the
 * mugs" put the mugs on the approval screen.
 */
describe("words that set apart (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const search = async (query: string) =>
    text(await (await w.connect(w.keys.alice)).callTool({ name: "search", arguments: { query } }));

  it("a search leaves out what follows 'but' after a whole set", async () => {
    const orders = await search("all my orders but the cancelled ones");
    expect(orders).not.toContain("`ord_cancelled`");
    expect(orders).toContain("`ord_paid`");
    const tickets = await search("every ticket but the closed ones");
    expect(tickets).not.toMatch(/q = ones|\?q=ones/);
    expect(tickets).toContain("`tkt_2`");
  });

  it.each([
    ["Buy everything in my cart but the mugs, ship home, pay by card", "prod_tee", "prod_mug"],
    ["Buy my whole cart except the tee, ship home, pay by card", "prod_mug", "prod_tee"],
    ["Buy my cart except a tee, ship home, pay by card", "prod_mug", "prod_tee"],
    // Review 54: the words before the negation still name their row and count.
    ["Buy one mug from my cart except the tee, ship home, pay by card", "1 × prod_mug", "prod_tee"],
    ["Buy 3 mugs from my cart without the tee, ship home, pay by card", "3 × prod_mug", "prod_tee"],
    // Review 54b: a negation after the thing denies it; the words before it ask nothing.
    ["Buy the mugs, the hoodie is not needed, ship home, pay by card", "prod_mug", "prod_hoodie"],
    [
      "Buy the mugs in my cart, the kettle I don't need anymore, ship home, pay by card",
      "prod_mug",
      "prod_kettle",
    ],
  ])("a start takes the cart without what the words set apart: %s", async (intent, taken, left) => {
    const out = await (await w.connect(w.keys.alice)).callTool({
      name: "start_action",
      arguments: { intent },
    });
    const items = String((sc(out).from_words as Record<string, unknown> | undefined)?.items ?? "");
    expect(items, text(out)).toContain(taken);
    expect(items, text(out)).not.toContain(left);
  });

  it.each([
    "Buy my cart except one mug, ship home, pay by card",
    "Buy the mugs in my cart except one, ship home, pay by card",
  ])("a counted part set apart takes no whole row away: the items are asked (%s)", async (intent) => {
    const out = await (await w.connect(w.keys.alice)).callTool({
      name: "start_action",
      arguments: { intent },
    });
    expect(sc(out).status, text(out)).toBe("open");
    expect((sc(out).from_words as Record<string, unknown> | undefined)?.items, text(out)).toBeUndefined();
  });
});
