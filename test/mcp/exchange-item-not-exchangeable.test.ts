import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set CZ (played, both hosts): "Exchange the mug from my exchange order for a different one."
 * opened an action asking for item_id from the one exchangeable line, the tee; the mug's refusal
 * sat in the order's rows below. The models had to cancel the action (a call), and a careless one
 * could have exchanged the tee. The exchange's item list now holds every open line with its
 * verdict: words naming one that cannot be exchanged end the start saying why, and what is
 * possible for it instead. Review: rows keyed `id` were read as the replacement too (a list the
 * node gives another field is never this field's).
 */
describe("an exchange of an item that cannot be exchanged ends at its start (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("the mug: refused in the same call, why, and that it can be returned; nothing left open", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Exchange the mug from my exchange order for a different one." },
    });
    expect(sc(out), text(out)).toMatchObject({ status: "refused", reason: "item_not_exchangeable" });
    expect(text(out)).toMatch(
      /Signpost Mug cannot be exchanged \(it can be returned instead: kind return_refund\)/,
    );
    expect(text(out)).toMatch(/nothing to cancel/);
    // The mug's line is the item, never the replacement.
    expect(text(out)).not.toMatch(/replacement_product_id = ord_exchange_item/);
    expect(
      await w.db.action.count({ where: { status: { notIn: ["refused", "completed", "cancelled"] } } }),
    ).toBe(0);
  });

  it("the tee still exchanges by words; with no item named, the user is asked, the mug's verdict shown", async () => {
    const alice = await w.connect(w.keys.alice);
    const tee = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Exchange the tee from my exchange order for size L", dry_run: true },
    });
    expect(sc(tee).outcome, text(tee)).toBe("preview");
    expect(text(tee)).toMatch(/item_id = ord_exchange_item_1, replacement_product_id = prod_tee_l/);
    const unnamed = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Exchange an item from my exchange order", dry_run: true },
    });
    expect(sc(unnamed).missing).toContain("item_id");
    expect(text(unnamed)).toMatch(/Signpost Mug, quantity 1, possible no: not exchangeable/);
  });
});
