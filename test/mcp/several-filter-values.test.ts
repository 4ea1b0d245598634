import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowIds } from "../helpers/table-row";
import { call } from "../legacy/legacy-http";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Set CC (task 14): `helpdesk://tickets?priority=urgent,high` was refused ("must be one of"), and
 * the model read every ticket next. A filter sent several values it declares reads the listing
 * without it and keeps the rows holding one of them, said in one line — where every row is on
 * that page; otherwise, or with a value it does not declare, it is refused as before. Real MCP
 * client, gateway and legacy service.
 */
describe("a filter sent several of its values at once", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const open = async (key: string, uri: string) =>
    text(
      await (await w.connect(key, { faces: "browse" })).callTool({ name: "navigate", arguments: { uri } }),
    );

  it("urgent or high tickets: every row holding either, in one call", async () => {
    const t = await open(w.keys.sam, "helpdesk://tickets?priority=urgent,high");
    expect(rowIds(t).sort()).toEqual(["tkt_1", "tkt_6", "tkt_9"]);
    expect(t).toContain("Only rows with `priority` urgent or high: 3 of the 9");
    expect(t).toContain("Page 1 · 3 shown · 9 in all");
  });

  it("keeps the other filters: open or pending shipping tickets", async () => {
    const t = await open(w.keys.sam, "helpdesk://tickets?status=open,pending&team_id=shipping");
    expect(rowIds(t).sort()).toEqual(["tkt_2", "tkt_4", "tkt_9"]);
    expect(t).toContain("Filtered: team_id = shipping.");
  });

  it("a member's own orders only, read by their status", async () => {
    const t = await open(w.keys.alice, "shop://orders?status=paid,shipped");
    expect(rowIds(t)).toEqual(["ord_paid", "ord_transit"]);
  });

  // Review 63b: values it declares with no row to hold them were refused as bad values.
  it("no row at all: none, not a refusal", async () => {
    const t = await open(w.keys.sam, "helpdesk://tickets?priority=urgent,high&status=closed");
    expect(t).toContain("Only rows with `priority` urgent or high: 0 of the 2");
    expect(t).not.toContain("**rejected:**");
  });

  it("a value the filter does not declare is refused as before", async () => {
    const t = await open(w.keys.sam, "helpdesk://tickets?priority=urgent,bogus");
    expect(t).toContain("**rejected:** `priority` must be one of");
    expect(rowIds(t)).toEqual([]);
  });

  it("a listing of more pages than one is refused as before: its other rows are unread", async () => {
    for (let i = 0; i < 4; i++)
      await call(w.legacy, "POST", "/v1/orders", {
        idempotencyKey: `several-values-${i}-0001`,
        body: {
          customer_id: "cus_alice",
          items: [{ product_id: "prod_mug", quantity: 1 }],
          address_id: "addr_alice_home",
          shipping_method: "standard",
        },
      });
    const t = await open(w.keys.alice, "shop://orders?status=paid,shipped");
    expect(t).toContain("**rejected:** `status` must be one of");
    await w.legacy.reset();
  });
});
