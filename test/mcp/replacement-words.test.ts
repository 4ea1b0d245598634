import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Words that say what a record becomes never name the record. New tasks, round 25: "Exchange the
 * mug from my kettle order for a Logo Tee in size S" named the order holding a tee and a mug by
 * its most words ("logo", "tee" of the replacement), took the tee as the item, and the wrong
 * exchange went to Alice's approval.
 */
describe("the record the words describe, not the one the replacement's words name", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("'the mug from my kettle order for a Logo Tee in size S' is the kettle order's mug, and the answer says it can take only a return", async () => {
    const alice = await w.connect(w.keys.alice);
    const res = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Exchange the mug from my kettle order for a Logo Tee in size S." },
    });
    const out = sc(res);
    expect(text(res)).not.toContain("ord_exchange");
    expect(out.status).not.toBe("awaiting_approval");
    expect(text(res)).toContain(
      "no order that can take this fits the user's words (mug, kettle): ord_delivered fits but only return_refund is possible; tell the user",
    );
  });

  it("a name that fits the describing words is still taken at once", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = sc(
      await alice.callTool({
        name: "start_action",
        arguments: { intent: "Exchange the tee from my order with the mug for size L" },
      }),
    );
    expect(out.from_words).toMatchObject({ order_id: "ord_exchange", replacement_product_id: "prod_tee_l" });
  });
});
