import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Set CA (task 3): "Which of my orders had a coupon, and how much did it save me?" opened all
 * eight orders with only `coupon_code` added; the model read them again for what the coupon took
 * off. A word the listing declares for a field ("save" for `discount`) adds it as its own name
 * does, and "with a ‹field›" / "without a ‹field›" keeps the rows that hold a value there (or
 * none), where the listing was read whole and cannot filter by it. Real MCP client and legacy.
 */
describe("rows with (or without) a field the words name", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const ids = (t: string) =>
    t
      .split("\n")
      .filter((l) => /^\| `(ord|tkt)_/.test(l))
      .map((l) => (l.split("|")[1] ?? "").trim().replaceAll("`", ""));
  const search = async (key: string, query: string) =>
    text(await (await w.connect(key)).callTool({ name: "search", arguments: { query } }));

  it("had a coupon, and how much it saved: the one order, with its discount", async () => {
    const t = await search(w.keys.alice, "Which of my orders had a coupon, and how much did it save me?");
    expect(ids(t)).toEqual(["ord_paid"]);
    expect(t).toMatch(/\| discount \|/);
    expect(t).toContain("$30.00");
    expect(t).toContain("Only rows with a `discount`: 1 of the 8 (the listing cannot filter by it).");
    expect(t).toContain("Page 1 · 1 shown · 8 in all");
  });

  it("without a coupon: the seven others, said, never 'no row holds coupon'", async () => {
    const t = await search(w.keys.alice, "my orders without a coupon");
    expect(ids(t)).toHaveLength(7);
    expect(ids(t)).not.toContain("ord_paid");
    expect(t).toContain("Only rows without a `discount`: 7 of the 8");
    expect(t).not.toContain("no row here holds");
  });

  it("a refund is the refunded column, not paid_not_refunded: none yet", async () => {
    const t = await search(w.keys.alice, "my orders with a refund");
    expect(ids(t)).toEqual([]);
    expect(t).toContain("Only rows with a `refunded`: 0 of the 8");
  });

  it("tickets with a resolution: only those that hold one", async () => {
    const t = await search(w.keys.sam, "tickets with a resolution");
    expect(ids(t).sort()).toEqual(["tkt_5", "tkt_6", "tkt_7", "tkt_8"]);
  });

  it("a word naming no added column leaves the rows as they were", async () => {
    const t = await search(w.keys.alice, "my orders with a smile");
    expect(t).not.toContain("Only rows with a");
  });
});
