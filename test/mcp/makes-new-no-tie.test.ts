import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set BF (both hosts): "Move my lamp order to my home address." was answered "Several capabilities
 * match these words about as well" (the address change, a checkout), with its order named by the
 * words and by entity_id too: a call more. A checkout makes a new order and takes none, so it is
 * not what a change of the order named means, where that order takes the best match now.
 */
describe("a match that makes a new record is no tie for a change of the one named (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it.each([{}, { entity_id: "ord_paid" }])("'Move my lamp order to my home address.' %o", async (extra) => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Move my lamp order to my home address.", ...extra },
    });
    expect(sc(out).reason).not.toBe("ambiguous_intent");
    expect(text(out)).toMatch(/^applied: Change the delivery address: done \(ord_paid\)/);
    const order = (await legacyJson(w.legacy, "orders/ord_paid")) as { address?: { id?: string } };
    expect(order.address?.id).toBe("addr_alice_home");
  });

  it("a checkout asked for still starts: the words name no order", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Buy one mug, ship it to my home address.", dry_run: true },
    });
    expect(sc(out).capability).toBe("checkout");
  });
});
