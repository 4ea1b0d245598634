import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * "Take the mug off my lamp order" (issue 23, played): the paid order ord_paid (Desk Lamp + Signpost
 * Mug, coupon SAVE30) cannot lose a line. What the model tried must never move money it did not
 * say: a field the chosen path ignores is refused, and a part refund says what it refunds and that
 * every item still ships.
 */
describe("after-sales on part of an unshipped order (MCP over HTTP, real legacy service)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const start = (patch: Record<string, unknown>, dry_run = true) =>
    w.connect(w.keys.alice).then((c) =>
      c.callTool({
        name: "start_action",
        arguments: { capability: "after_sales", entity_id: "ord_paid", patch, dry_run },
      }),
    );

  // Changed on purpose (branch after-sales-ask): item_ids beside refund-only on this unshipped order
  // used to be told "set kind to return_refund", which it cannot take either; it now says the
  // order is cancelled whole or not at all, and the start ends there.
  it("item_ids beside refund-only on the unshipped order: refused as one item, never dropped into a whole-order refund", async () => {
    const result = await start({
      kind: "refund_only",
      item_ids: ["ord_paid_item_2"],
      reason: "does not want the mug",
    });
    const s = sc(result);
    const t = text(result);
    expect(t, t).toMatch(/^preview: Preview only, nothing was saved: ord_paid has not shipped/);
    expect(s.validation_errors).toContainEqual(
      expect.objectContaining({ field: "item_ids", code: "whole_order_only", refused: true }),
    );
    expect(t).toMatch(/Signpost Mug alone cannot be cancelled now/);
    expect(t).not.toMatch(/does not use item_ids|Cancel the order and refund/);
  });

  it("every path's foreign field is refused the same way (amount on a return, replacement on a refund)", async () => {
    w.legacy.reset();
    const client = await w.connect(w.keys.alice);
    const ret = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "after_sales",
          entity_id: "ord_delivered",
          patch: {
            kind: "return_refund",
            item_ids: ["ord_delivered_item_1"],
            amount: 500,
            reason: "not needed",
          },
          dry_run: true,
        },
      }),
    );
    expect(ret.validation_errors).toContainEqual(
      expect.objectContaining({ field: "amount", code: "field_not_used" }),
    );
    const refund = sc(
      await start({ kind: "refund_only", replacement_product_id: "prod_tee_l", reason: "x y z" }),
    );
    expect(refund.validation_errors).toContainEqual(
      expect.objectContaining({ field: "replacement_product_id", code: "field_not_used" }),
    );
  });

  it("a part refund says what it refunds, that the order is not cancelled and every item and the coupon stay", async () => {
    const result = await start({ kind: "refund_only", amount: 1800, reason: "does not want the mug" });
    const t = text(result);
    expect(sc(result).outcome).toBe("preview");
    expect(t).toMatch(/Refund \$18\.00 to/);
    expect(t).not.toMatch(/Shipping: partly/);
    expect(t).toMatch(
      /Refund: \$18\.00 of the \$316\.00 refundable \(items \$338\.00 \+ shipping \$8\.00 − coupon SAVE30 \$30\.00 = \$316\.00\); \$298\.00 stays paid/,
    );
    expect(t).toMatch(
      /Order after: Not cancelled: ord_paid still ships with all its items \(Desk Lamp ×1, Signpost Mug ×1\); coupon SAVE30 stays applied/,
    );
  });
});
