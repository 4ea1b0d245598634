import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, legacyRecord, type McpWorld, sc, text } from "../mcp/mcp-world";

/**
 * Set DE (plain host, 2 calls): "Cancel my lamp order." submitted on the paid order's cancel form
 * (the cancel of unpaid orders) was refused, "use after_sales (Cancel and refund)", and the model
 * submitted again. As start_action by words does (instead-of-refused.ts), a refusal that names
 * exactly one other capability the words find starts that one, under its own rules: the refund
 * waits for the person; nothing moves.
 */
describe("a form its record refuses hands over to the one change the refusal names (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("the paid order's cancel form starts the cancel-and-refund, waiting for the person", async () => {
    await w.legacy.reset();
    const client = await w.connect(w.keys.alice);
    const out = await client.callTool({
      name: "submit",
      arguments: { uri: "shop://order/ord_paid/cancel", fields: { user_words: "Cancel my lamp order." } },
    });
    expect(text(out)).toMatch(/after_sales · awaiting_approval/);
    expect(text(out)).toMatch(/Started instead of cancel_unpaid_order, refused: ord_paid is paid/);
    expect(text(out)).toMatch(/Cancel the order and refund \$316\.00/);
    expect((await legacyRecord<{ status: string }>(w, "orders/ord_paid")).status).toBe("paid");
  });

  // Review 68: the record was the agent's pick for another change; a change nobody approves is
  // never run there in its place.
  it("a refusal pointing at a change nobody approves hands over nothing", async () => {
    await w.legacy.reset();
    const client = await w.connect(w.keys.alice);
    const out = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "after_sales",
        entity_id: "ord_pending",
        intent: "The kettle I received is broken: cancel the kettle order and refund me.",
      },
    });
    expect(sc(out).status, text(out)).not.toBe("completed");
    expect((await legacyRecord<{ status: string }>(w, "orders/ord_pending")).status).toBe("pending_payment");
  });

  it("under the agent's key: the hand-over starts once, and a resend answers the same action", async () => {
    await w.legacy.reset();
    const client = await w.connect(w.keys.alice);
    const args = {
      capability: "cancel_unpaid_order",
      entity_id: "ord_paid",
      intent: "Cancel my lamp order.",
      idempotency_key: "cancel-lamp-0001",
    };
    const first = await client.callTool({ name: "start_action", arguments: args });
    expect(sc(first), text(first)).toMatchObject({ capability: "after_sales", status: "awaiting_approval" });
    const again = await client.callTool({ name: "start_action", arguments: args });
    expect(sc(again).action_id, text(again)).toBe(sc(first).action_id);
  });

  it("without the user's words, or on start_action with the capability and no words, the refusal stands", async () => {
    const client = await w.connect(w.keys.alice);
    const form = await client.callTool({
      name: "submit",
      arguments: { uri: "shop://order/ord_paid/cancel", fields: {} },
    });
    expect(text(form)).toMatch(/rejected/);
    const started = await client.callTool({
      name: "start_action",
      arguments: { capability: "cancel_unpaid_order", entity_id: "ord_paid" },
    });
    expect(sc(started).status).toBe("refused");
  });
});
