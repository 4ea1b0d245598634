import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * A product found by a search says whether it can be bought now, beside its price (set U: "which
 * sizes of the Logo Tee are in stock?" listed the sizes with prices only, one read more for stock).
 */
describe("search: products with their stock", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());

  it("each product found says how many are in stock, or sold out", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const page = text(
      await alice.callTool({ name: "search", arguments: { query: "Logo Tee sizes in stock" } }),
    );
    expect(page).toMatch(/\(shop:\/\/product\/prod_tee_l\) — \$25\.00 · \d+ in stock$/m);
    expect(page).toMatch(/\(shop:\/\/product\/prod_tee_xl\) — \$25\.00 · sold out$/m);
  });
});
