import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Issue 23: "I want to send back the two mugs from my kettle order, I don't need them." started
 * the return, and the answer added `also asked: "I do not need them" → cancel_unpaid_order` on
 * the delivered, paid order, which that capability cannot even take. A want the user denies of
 * themselves ("I don't need them"), a feeling or a cause is their reason, never a second ask; and
 * a second ask on a record is offered as a call only where its capability can take that record
 * now. Real MCP client over HTTP, gateway and legacy service.
 */
describe("a reason is no ask, and no call is offered on a record it cannot take (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it.each([
    "I want to send back the two mugs from my kettle order, I don't need them.",
    "I want to return the mugs from my kettle order, I don't want them anymore",
    "I want to return the mugs from my kettle order because they broke",
    "I don't need the mugs from my kettle order anymore, please take them back",
  ])("'%s' starts the return and says nothing else was asked", async (intent) => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({ name: "start_action", arguments: { intent } });
    expect(sc(out).capability).toBe("after_sales");
    expect(sc(out).also_asked).toBeUndefined();
    expect(text(out)).not.toMatch(/also asked|not done|cancel_unpaid_order/);
  });

  it("a real second ask beside a reason is still done (in the same call: it needs nobody)", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        intent: "I don't want tkt_2 to wait any longer, make it high priority and give it to Sara",
      },
    });
    expect(sc(out).capability).toBe("change_ticket_priority");
    expect(sc(out).also_done).toEqual([
      expect.objectContaining({ words: "give it to Sara", capability: "assign_ticket", status: "completed" }),
    ]);
    expect(text(out)).toContain('also done: "give it to Sara" → assign_ticket');
  });

  it("an ask whose capability cannot take its record now is said as not done, with no call", async () => {
    const sam = await w.connect(w.keys.sam);
    // tkt_5 is resolved: its priority changes, but it cannot be assigned now.
    const out = await sam.callTool({
      name: "start_action",
      arguments: { intent: "Make tkt_5 high priority and give it to Sara" },
    });
    expect(sc(out)).toMatchObject({ capability: "change_ticket_priority", status: "completed" });
    expect(sc(out).also_asked).toEqual([
      { words: "give it to Sara", capability: "assign_ticket", entity_id: "tkt_5", not_now: true },
    ]);
    const next = (sc(out).next_actions ?? []) as Json[];
    expect(next.some((n) => (n.args as Json | undefined)?.capability === "assign_ticket")).toBe(false);
    expect(text(out)).toContain(
      'not done: "give it to Sara" (assign_ticket cannot take tkt_5 now; tell the user)',
    );
  });
});
