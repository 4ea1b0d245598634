import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/** The cells of one column of the first markdown table in a page. */
function column(page: string, name: string): string[] {
  const rows = page.split("\n").filter((l) => l.startsWith("| "));
  const head = (rows[0] ?? "").split("|").map((c) => c.trim());
  const at = head.indexOf(name);
  return rows.slice(2).map((r) => (r.split("|")[at] ?? "").trim());
}

/**
 * Every money column of a listing row reads as money, one added by `?columns=` or by a search's
 * words too: played, an orders listing showed `refunded` as 8900 (cents) beside `total` $89.00,
 * because listings took money from a list of names rather than from what the connector declares.
 */
describe("a listing's money columns are shown as money, by the connector's declaration", () => {
  let w: McpWorld;
  let alice: Client;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    alice = await w.connect(w.keys.alice, { faces: "browse" });
  }, 120_000);
  afterAll(async () => w?.close());

  const call = async (name: string, args: Record<string, unknown>) =>
    text(await alice.callTool({ name, arguments: args }));

  it("an added `refunded` column reads in dollars like the total beside it", async () => {
    const listed = await call("navigate", { uri: "shop://orders?columns=refunded,subtotal" });
    const refunded = column(listed, "refunded");
    expect(refunded.length).toBeGreaterThan(0);
    for (const c of [...refunded, ...column(listed, "subtotal"), ...column(listed, "total")])
      expect(c).toMatch(/^\$\d+\.\d\d$/);
    // The same where a search's words add the column.
    const searched = await call("search", { query: "refunded orders" });
    for (const c of column(searched, "refunded")) expect(c).toMatch(/^\$\d+\.\d\d$/);
  });

  it("a question about money refunded opens the orders with the column, no listing named (set AS)", async () => {
    // Both models got records found by "money" and "so", then navigated the orders themselves.
    const asked = await call("search", { query: "How much money have I been refunded so far?" });
    expect(asked).toContain("## [Orders]");
    expect(asked).toContain("Columns added for your words: `refunded`");
    expect(column(asked, "refunded").length).toBe(8);
  });

  it("the shipping a customer overpaid says by its name which way it is owed, in the listing and the order's page", async () => {
    // Played: `shipping_difference: $7.00` was read as owed by the customer; the shop owes it.
    const listed = await call("navigate", { uri: "shop://orders?columns=shipping_owed_to_customer" });
    const ids = column(listed, "id");
    const owed = column(listed, "shipping_owed_to_customer");
    expect(owed[ids.indexOf("`ord_shipdiff`")]).toBe("$7.00");
    expect(listed).not.toContain("shipping_difference");
    const page = await call("navigate", { uri: "shop://order/ord_shipdiff" });
    expect(page).toContain(
      "**shipping refund:** yes — The customer overpaid shipping by $7.00; the shop owes it back, as a shipping refund",
    );
  });
});
