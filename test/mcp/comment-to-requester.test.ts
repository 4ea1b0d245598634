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
});
