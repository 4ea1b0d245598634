import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * The line of an order the user's words name is the one the change is about, or none: "Exchange
 * the mug from my delivered order" was answered with the tee's exchange, `item_id` "taken from
 * the words" because the tee's line id (`ord_exchange_item_1`) holds the word "exchange", and the
 * only exchangeable line was the default. An id's parts are no words of the user's, and one
 * exchangeable line beside others is no default.
 */
describe("the order line the words name (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("'exchange the mug' takes no other line, and says which lines can be exchanged", async () => {
    const alice = await w.connect(w.keys.alice);
    const result = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Exchange the mug from my delivered order for another one", dry_run: true },
    });
    expect(text(result)).not.toMatch(/item_id = ord_exchange_item_1/);
    // Set CZ: the mug is named, and it cannot be exchanged: the start says so (it ends, no
    // action to cancel), with the one line that can be, for the agent to tell the user.
    expect(text(result)).toMatch(
      /Signpost Mug cannot be exchanged \(it can be returned instead: kind return_refund\); still exchangeable: ord_exchange_item_1 \(Logo Tee \(M\)\)/,
    );
  });

  it("'exchange the tee for size L' still takes the tee's line and the L from the words", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = sc(
      await alice.callTool({
        name: "start_action",
        arguments: { intent: "Exchange the tee I received for size L", dry_run: true },
      }),
    );
    expect(out.from_words).toMatchObject({
      order_id: "ord_exchange",
      item_id: "ord_exchange_item_1",
      replacement_product_id: "prod_tee_l",
    });
  });
});
