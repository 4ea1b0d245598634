import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Review 64b: "buy the unpaid kettle with my balance" matched the unpaid order's cancellation on
 * "unpaid", and a cancellation needs nobody's approval: the order was cancelled at once, though
 * the user asked to buy. A change nobody approves whose verb the words do not say (every verb they
 * ask with is another capability's own word) is started for the agent to check, never run.
 * Real MCP client over HTTP, the gateway and the legacy service.
 */
describe("words whose verb is another capability's never run a change nobody approves", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const status = async () =>
    (
      (await (
        await fetch(`${w.legacy.url}/v1/orders/ord_pending`, {
          headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
        })
      ).json()) as { status: string }
    ).status;

  it("'buy the unpaid kettle' and 'buy the order I left unpaid' cancel nothing", async () => {
    const alice = await w.connect(w.keys.alice);
    for (const intent of [
      "buy the unpaid kettle with my balance",
      "Buy the order I left unpaid",
      // Review 64c: past an opener or a general verb, and beside a verb nobody owns.
      "Go buy the unpaid kettle",
      "Help me buy the unpaid kettle",
      "Buy the unpaid kettle and let me know",
    ]) {
      await w.legacy.reset();
      const out = await alice.callTool({ name: "start_action", arguments: { intent } });
      expect(sc(out).status, text(out)).not.toBe("completed");
      expect(await status(), intent).toBe("pending_payment");
    }
    // Sending the order somewhere is its address (its own change, needing nobody), never its
    // cancel nor a purchase; "go ahead" asks nothing of its own (it was said "not done").
    await w.legacy.reset();
    const sent = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Go ahead and send my kettle order to my home" },
    });
    expect(sc(sent), text(sent)).toMatchObject({
      capability: "change_delivery_address",
      status: "completed",
    });
    expect(text(sent)).not.toMatch(/not done/);
    expect(await status()).toBe("pending_payment");
  });

  it("general verbs belong to no capability: everyday changes still run at once (review 64c)", async () => {
    const sam = await w.connect(w.keys.sam);
    for (const intent of [
      "Set the priority of the headphones ticket to high",
      "Update the headphones ticket priority to urgent",
      "Change the status of the charged twice ticket to pending",
    ]) {
      await w.legacy.reset();
      const out = await sam.callTool({ name: "start_action", arguments: { intent } });
      expect(sc(out).status, intent).toBe("completed");
    }
    const alice = await w.connect(w.keys.alice);
    const moved = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Update the delivery address of my kettle order to my home" },
    });
    expect(sc(moved).status).toBe("completed");
  });

  it("words that ask to cancel it still cancel it at once", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Cancel my unpaid kettle order." },
    });
    expect(sc(out).status).toBe("completed");
    expect(await status()).toBe("cancelled");
  });
});
