import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { amountWords } from "@/server/browse/amount-words";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/** The cells of one column of the first markdown table in a page. */
function column(page: string, name: string): string[] {
  const rows = page.split("\n").filter((l) => l.startsWith("| "));
  const head = (rows[0] ?? "").split("|").map((c) => c.trim());
  const at = head.indexOf(name);
  return rows.slice(2).map((r) => (r.split("|")[at] ?? "").trim());
}

const dollars = (cell: string) => Number(cell.replace(/[$,]/g, ""));

/**
 * Words that compare an amount filter a listing by its declared money column, and say the filter
 * in one line; the number is never a word to match. Played (issue 23): "Which products do you
 * sell under 30 dollars?" answered "No product matches every word of `30 dollars` … these hold
 * `30`", a $89 backpack and $249 headphones.
 */
describe("amount words filter a listing by its money column (real MCP client)", () => {
  let w: McpWorld;
  let alice: Client;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    alice = await w.connect(w.keys.alice, { faces: "browse" });
  }, 120_000);
  afterAll(async () => w?.close());

  const search = async (query: string) =>
    text(await alice.callTool({ name: "search", arguments: { query } }));

  it("'under 30 dollars' keeps the products priced under $30.00, and says so", async () => {
    for (const query of [
      "Which products do you sell under 30 dollars?",
      "products below $30",
      "products cheaper than 30 USD",
    ]) {
      const page = await search(query);
      expect(page).toContain("Filtered: price under $30.00 (all ");
      const prices = column(page, "price");
      expect(prices.length).toBeGreaterThan(0);
      for (const p of prices) expect(dollars(p)).toBeLessThan(30);
      expect(page).not.toContain("matches every word");
      expect(page).not.toContain("q = 30");
    }
  });

  it("'between', 'at least' and 'over' bound the other side; an order's total is its main amount", async () => {
    const between = await search("products between $20 and $100");
    expect(between).toContain("Filtered: price between $20.00 and $100.00");
    for (const p of column(between, "price")) expect(dollars(p)).toBeGreaterThanOrEqual(20);
    for (const p of column(between, "price")) expect(dollars(p)).toBeLessThanOrEqual(100);
    const orders = await search("my orders over 200 dollars");
    expect(orders).toContain("Filtered: total over $200.00");
    const totals = column(orders, "total");
    expect(totals.length).toBeGreaterThan(0);
    for (const t of totals) expect(dollars(t)).toBeGreaterThan(200);
  });

  // Set BO: "cost" was searched as the catalog's text, found nothing, and the bound was not applied.
  it("a verb of price before the bound is the bound's ('products cost more than $100')", async () => {
    for (const query of ["products cost more than $100", "Which products are priced between $20 and $100?"]) {
      const page = await search(query);
      expect(page, query).toMatch(/Filtered: price (over \$100\.00|between \$20\.00 and \$100\.00)/);
      expect(page, query).not.toContain("No product matches");
      expect(column(page, "price").length, query).toBeGreaterThan(0);
    }
  });

  it("a bound in another currency than the column's is said, not applied (a review: '30 euros' read as $30.00)", async () => {
    const page = await search("products under 30 euros");
    expect(page).toContain("not applied (price is in USD, the words say EUR)");
    expect(page).not.toContain("Filtered: price under");
    expect(amountWords("under €30")?.currency).toBe("EUR");
    expect(amountWords("under 30")?.currency).toBeUndefined();
  });

  it("words naming a money column compare that one", async () => {
    const page = await search("my orders with a subtotal under $50");
    expect(page).toContain("Filtered: subtotal under $50.00");
    for (const s of column(page, "subtotal")) expect(dollars(s)).toBeLessThan(50);
  });

  it("a number that counts something else, or names no bound, is no amount", () => {
    expect(amountWords("orders with more than 2 items")).toBeNull();
    expect(amountWords("30 mugs")).toBeNull();
    expect(amountWords("tickets over 3 days old")).toBeNull();
    expect(amountWords("at least €1,200.50")).toMatchObject({ min: 1200.5, minStrict: false });
    expect(amountWords("up to $25")).toMatchObject({ max: 25, maxStrict: false });
    expect(amountWords("at most 25")).toMatchObject({ max: 25, maxStrict: false });
    // As often how many rows to show: a bare number after these is no money.
    expect(amountWords("list my orders, up to 20")).toBeNull();
    expect(amountWords("show a maximum of 10")).toBeNull();
    expect(amountWords("up to 25 euros")).toMatchObject({ max: 25, currency: "EUR" });
  });
});
