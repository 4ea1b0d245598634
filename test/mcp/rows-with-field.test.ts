import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rowIds } from "../helpers/table-row";
import { call } from "../legacy/legacy-http";
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

  const search = async (key: string, query: string) =>
    text(await (await w.connect(key)).callTool({ name: "search", arguments: { query } }));

  it("had a coupon, and how much it saved: the one order, with its discount", async () => {
    const t = await search(w.keys.alice, "Which of my orders had a coupon, and how much did it save me?");
    expect(rowIds(t)).toEqual(["ord_paid"]);
    expect(t).toMatch(/\| discount \|/);
    expect(t).toContain("$30.00");
    expect(t).toContain("Only rows with a `discount`: 1 of the 8 (the listing cannot filter by it).");
    expect(t).toContain("Page 1 · 1 shown · 8 in all");
  });

  it("without a coupon: the seven others, said, never 'no row holds coupon'", async () => {
    const t = await search(w.keys.alice, "my orders without a coupon");
    expect(rowIds(t)).toHaveLength(7);
    expect(rowIds(t)).not.toContain("ord_paid");
    expect(t).toContain("Only rows without a `discount`: 7 of the 8");
    expect(t).not.toContain("no row here holds");
  });

  // Review 63b: "no" was read as the value `can_return` holds, keeping the coupon order.
  it("with no coupon: the seven without one, 'no' read as a denial, never as a value", async () => {
    const t = await search(w.keys.alice, "orders with no coupon");
    expect(rowIds(t)).toHaveLength(7);
    expect(rowIds(t)).not.toContain("ord_paid");
    expect(t).not.toContain("can return `no`");
  });

  it("a refund is the refunded column, not paid_not_refunded: none yet", async () => {
    const t = await search(w.keys.alice, "my orders with a refund");
    expect(rowIds(t)).toEqual([]);
    expect(t).toContain("Only rows with a `refunded`: 0 of the 8");
  });

  it("tickets with a resolution: only those that hold one", async () => {
    const t = await search(w.keys.sam, "tickets with a resolution");
    expect(rowIds(t).sort()).toEqual(["tkt_5", "tkt_6", "tkt_7", "tkt_8"]);
  });

  it("a word naming no added column leaves the rows as they were", async () => {
    const t = await search(w.keys.alice, "my orders with a smile");
    expect(t).not.toContain("Only rows with a");
  });
});

/**
 * Review 63: a listing of more than one page (Alice with twelve orders, five of them with a
 * coupon) is not cut by "with a …" and says so for "without a …" as it always did; nor is a
 * listing whose status filter another reading dropped for a wider one of more pages.
 */
describe("rows with a field, on a listing of more than one page", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => {
    await w.legacy.reset();
    for (let i = 0; i < 4; i++)
      await call(w.legacy, "POST", "/v1/orders", {
        idempotencyKey: `more-orders-${i}-0001`,
        body: {
          customer_id: "cus_alice",
          items: [{ product_id: "prod_mug", quantity: 2 }],
          address_id: "addr_alice_home",
          shipping_method: i === 0 ? "express" : "standard",
          coupon_code: "SAVE5",
        },
      });
  });

  const search = async (query: string) =>
    text(await (await w.connect(w.keys.alice)).callTool({ name: "search", arguments: { query } }));

  it("'without a coupon' is not applied, and says so", async () => {
    const t = await search("my orders without a coupon");
    expect(t).not.toContain("Only rows without");
    expect(t).toMatch(/`not coupon`: not applied \(the listing has more than one page/);
  });

  it("'with a coupon' cuts no row of a first page and claims no count", async () => {
    const t = await search("my orders with a coupon");
    expect(t).not.toContain("Only rows with");
    expect(t).toContain("12 in all");
  });

  it("a status another reading widened to every page is not cut either", async () => {
    const t = await search("my orders shipped express without a coupon");
    expect(t).not.toMatch(/Only rows without a `discount`: \d+ of the 10/);
  });
});
