import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Issue 23: "Buy two Logo Tees in size XL, express to my home, pay by card" — the XL is sold out.
 * The start answered "input_required: Only 0 of … in stock", offered the cart as items and a
 * coupon, and left the action open, so the model spent a call on cancel_action. A named product
 * the shop cannot fill now ends the start at once: sold out, the variants in stock, nothing held.
 */
describe("checkout by words of a sold-out product (MCP over HTTP, real legacy service)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("ends at once, naming the variants in stock, with nothing to cancel", async () => {
    const alice = await w.connect(w.keys.alice);
    const result = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Buy two Logo Tees in size XL, express to my home, pay by card." },
    });
    const t = text(result);
    expect(sc(result)).toMatchObject({ outcome: "rejected", status: "refused" });
    expect(t).toMatch(/Logo Tee \(XL\) is sold out; in stock: .*Logo Tee \(M\) `prod_tee`/);
    expect(t).toMatch(/nothing to cancel/);
    // No cart offered as items, no coupon, no cancel_action.
    expect(t).not.toMatch(/options\.cart|coupon|cancel_action/);
    // The words of steps the refused start never reached (shipping, address) are said as unread,
    // never as something no capability does.
    expect(t).not.toMatch(/no capability does it/);
    expect(await w.db.action.count({ where: { capability: "checkout", status: { not: "refused" } } })).toBe(
      0,
    );
  });

  it("fewer in stock than asked says how many there are", async () => {
    const alice = await w.connect(w.keys.alice);
    const result = await alice.callTool({
      name: "start_action",
      arguments: { capability: "checkout", patch: { items: [{ product_id: "prod_lamp", quantity: 9 }] } },
    });
    expect(text(result)).toMatch(/Desk Lamp is only \d+ in stock \(asked 9\); no other variant in stock/);
  });
});
