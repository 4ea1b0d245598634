import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * A field the agent names by its own name is that column, never a value: set CG's "my order with
 * headphones shipped_at" filtered the orders to `status=shipped` and added three `shipping_…`
 * columns but not `shipped_at`, and the player read every order again to be sure no delivered
 * one held headphones. Real MCP client, gateway and legacy service.
 */
describe("search: a field name written whole", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("adds that column, filters nothing by the value its name holds, and the other words still find rows", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const page = text(
      await alice.callTool({ name: "search", arguments: { query: "my order with headphones shipped_at" } }),
    );
    expect(page).toContain("Columns added for your words: `shipped_at`.");
    expect(page).not.toContain("status = shipped");
    expect(page).not.toContain("`shipping_method`");
    expect(page).toMatch(/^\| `ord_transit` \|.*\| 2026-\d\d-\d\d, \d+ days? ago \|$/m);
    // A declared value written whole is still that value.
    const unpaid = text(
      await alice.callTool({ name: "search", arguments: { query: "orders pending_payment" } }),
    );
    expect(unpaid).toContain("status = pending_payment");
  });

  it("a record's id or a filter written with an underscore is read as before (review 64b)", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const search = async (query: string) =>
      text(await alice.callTool({ name: "search", arguments: { query } }));
    const rows = (page: string) => [...page.matchAll(/^\| `(ord_\w+)` \|/gm)].map((m) => m[1]);
    expect(await search("orders paid from pm_alice_balance")).toContain("payment method = balance");
    // Another id beside a field's name is still the text rows are found by.
    const mugs = await search("orders with prod_mug shipped_at");
    expect(rows(mugs)).toEqual(rows(await search("orders with prod_mug")));
    expect(rows(mugs).length).toBeLessThan(8);
  });
});
