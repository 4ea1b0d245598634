import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * What people call an order's status filters the orders listing, as the ORDER node reads the same
 * words (set T: "orders awaiting payment" filtered nothing, and the model read all nine rows).
 */
describe("orders listing: statuses in people's words", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());

  it.each([
    ["my orders awaiting payment", "pending_payment"],
    ["which of my orders are waiting for payment", "pending_payment"],
    // Set AE: "unpaid" searched as text and matched nothing.
    ["my unpaid orders", "pending_payment"],
    ["orders on their way", "shipped"],
  ])("%s → ?status=%s", async (query, status) => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const page = text(await alice.callTool({ name: "search", arguments: { query } }));
    expect(page).toContain(`(shop://orders?status=${status}) (opened here)`);
  });
});
