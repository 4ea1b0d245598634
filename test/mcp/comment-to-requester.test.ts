import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set CL (plain host): "Reply to the requester of the coupon not applied ticket: '…'" held the
 * comment ("internal is a default the user did not choose: ask them if it matters"), one call
 * more. The requester is the customer who raised the ticket: a reply to them is shown to them.
 * An internal note stays internal. Seed: tkt_5 "Coupon not applied", raised by adam@acme.test.
 */
describe("a reply to the requester is shown to the customer (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("runs at once, shown to the customer", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        intent:
          "Reply to the requester of the coupon not applied ticket: 'Sorry for the trouble, the credit is on your account.'",
      },
    });
    expect(sc(out), text(out)).toMatchObject({ capability: "comment_ticket", status: "completed" });
    expect(text(out)).not.toMatch(/default the user did not choose/);
    expect(text(out)).toMatch(/shown to the customer/);
  });

  // Set CT: "Reply to Adam on the coupon not applied ticket: '…'" held the reply the same way
  // (both hosts: a read of the ticket and a confirm more), where Adam raised that ticket. The
  // requester by name is the customer; another name, or "internally" beside it, still asks.
  it("a reply to the requester by name runs at once; another name or 'internally' asks", async () => {
    const sam = await w.connect(w.keys.sam);
    const start = async (intent: string) => {
      const res = await sam.callTool({ name: "start_action", arguments: { intent } });
      return { out: sc(res), text: text(res) };
    };
    const adam = await start(
      "Reply to Adam on the coupon not applied ticket: 'The discount has been applied.'",
    );
    expect(adam.out, adam.text).toMatchObject({ capability: "comment_ticket", status: "completed" });
    expect(adam.text).toMatch(/shown to the customer/);
    for (const intent of [
      "Reply to Bella on the coupon not applied ticket: 'Please check the discount.'",
      "Reply to Adam internally on the coupon not applied ticket: 'Discount checked.'",
    ]) {
      const held = await start(intent);
      expect(held.out.status, `${intent}\n${held.text}`).not.toBe("completed");
    }
  });
});
