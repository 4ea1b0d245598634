import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set DC (both hosts, 2 calls): "Can I get a refund for the shipping on my headphones order?"
 * matched the after-sales change, whose record refused it (no shipping overcharge) and pointed at
 * tracking the parcel; that read was started in its place and answered "applied: Track shipment
 * done", the refusal last. A read never stands in for a refused change: the refusal is the answer.
 */
describe("a refused change is answered by its refusal, never by a read started instead (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("the shipping refund on the order in transit: refused, with tracking offered as a next step", async () => {
    const client = await w.connect(w.keys.alice);
    const out = await client.callTool({
      name: "start_action",
      arguments: { intent: "Can I get a refund for the shipping on my headphones order?" },
    });
    expect(sc(out), text(out)).toMatchObject({ status: "refused", capability: "after_sales" });
    expect(text(out)).toMatch(/^rejected: No shipping overcharge to refund on this order/);
    expect(text(out)).not.toMatch(/Track shipment done|instead_of/);
    expect(text(out)).toMatch(/"capability":"track_shipment","entity_id":"ord_transit"/);
  });

  // Review 68: the agent's key had started the refused change, and the hand-over under the same
  // key answered "idempotency key reused" on the very first call.
  it("under the agent's key: the hand-over starts once, and a resend answers the same action", async () => {
    await w.legacy.reset();
    const client = await w.connect(w.keys.alice);
    const args = { intent: "Cancel my lamp order", idempotency_key: "cancel-lamp-0001" };
    const first = await client.callTool({ name: "start_action", arguments: args });
    expect(sc(first), text(first)).toMatchObject({ capability: "after_sales", status: "awaiting_approval" });
    expect(text(first)).toMatch(/instead_of: cancel_unpaid_order, refused: ord_paid is paid/);
    const again = await client.callTool({ name: "start_action", arguments: args });
    expect(sc(again).action_id, text(again)).toBe(sc(first).action_id);
  });

  it("a refused change another change can do instead still hands over to it", async () => {
    await w.legacy.reset();
    const client = await w.connect(w.keys.alice);
    const out = await client.callTool({
      name: "start_action",
      arguments: { intent: "Cancel my lamp order", dry_run: true },
    });
    expect(text(out)).not.toMatch(/^rejected/);
  });
});
