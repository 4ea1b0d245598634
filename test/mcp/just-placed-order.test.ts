import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Set X (played): "Cancel the order I just placed." a minute after a checkout listed every order
 * for the agent to pick from. "Just placed" dates the record as "placed today" does: the one order
 * made within the day is taken, said with its time; the person still approves the refund.
 */
describe("'the order I just placed' (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());

  it("is the order placed minutes ago, taken from the words", async () => {
    const alice = await w.connect(w.keys.alice);
    const buy = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Buy two Logo Tees in size S, standard shipping to my home, pay by card." },
    });
    const id = String(sc(buy).action_id);
    const ctx = await w.gw.getContext(w.agent.alice, { action_id: id });
    await w.gw.decideApproval(w.person.alice, {
      action_id: id,
      version: ctx.version as number,
      decision: "approve",
    });
    const out = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Cancel the order I just placed." },
    });
    const order = (sc(out).from_words as Json | undefined)?.order_id;
    expect(String(order)).toMatch(/^ord_[0-9a-f]{12}$/);
    expect(text(out)).toMatch(new RegExp(`order_id = ${order} \\(fits created .*just now`));
    expect(sc(out).status).toBe("awaiting_approval");
    expect(text(out)).toContain("Cancel the order and refund $55.00");
  });
});
