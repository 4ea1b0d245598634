import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * A start that can do nothing ends in that same call (issue 23): the record the user named cannot
 * take the change, or what they asked for is already so. A value the agent can fix keeps it open.
 */
describe("a start that can change nothing ends at once (MCP over HTTP, real legacy service)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  /** A dead action's answer: one short line, no fix, no lists, nothing to cancel. */
  function expectEnded(result: unknown, why: RegExp) {
    const s = sc(result);
    const t = text(result);
    expect(s).toMatchObject({ outcome: "rejected", status: "refused" });
    expect(t.split("\n")[0]).toMatch(why);
    expect(t.split("\n")[0]).toMatch(/this action ended: nothing is held or left open, nothing to cancel/);
    expect(t).not.toMatch(/^fix:|^missing:|options\.|why_not|returnable/m);
    const tools = s.next_actions.map((n) => n.tool);
    expect(tools).not.toContain("cancel_action");
    expect(tools).not.toContain("advance_action");
    expect(tools).toContain("start_action");
    return { s, t };
  }

  it("the address the user's words name is where the order already goes: ended, start again offered", async () => {
    const client = await w.connect(w.keys.alice);
    const result = await client.callTool({
      name: "start_action",
      arguments: { intent: "Change the delivery address of my lamp order to my office." },
    });
    const { s } = expectEnded(result, /already goes to Office/);
    expect(s.reason).toBe("same_address");
    expect(s.next_actions).toContainEqual(
      expect.objectContaining({ tool: "start_action", args: { capability: "change_delivery_address" } }),
    );
  });

  it("the order the user named has shipped: its address cannot change, so the action ends", async () => {
    const client = await w.connect(w.keys.alice);
    const result = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "change_delivery_address",
        entity_id: "ord_transit",
        patch: { address_id: "Office" },
      },
    });
    const { s } = expectEnded(result, /already shipped/);
    expect(s.reason).toBe("order_already_shipped");
  });

  it("a ticket already at the priority asked for: nothing would change, the action ends", async () => {
    const client = await w.connect(w.keys.sam);
    const result = await client.callTool({
      name: "start_action",
      arguments: { capability: "change_ticket_priority", entity_id: "tkt_9", patch: { priority: "urgent" } },
    });
    const { s } = expectEnded(result, /already urgent/);
    expect(s.reason).toBe("same_priority");
  });

  it("a value the agent sent that another value fixes keeps the action open to fix", async () => {
    const client = await w.connect(w.keys.alice);
    const s = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "change_delivery_address",
          entity_id: "ord_paid",
          patch: { address_id: "Moon base" },
        },
      }),
    );
    expect(s).toMatchObject({ outcome: "input_required", status: "open" });
    expect(s.next_actions.map((n) => n.tool)).toContain("advance_action");
  });

  it("at advance the value answers the action's own question: already so keeps it open for another value", async () => {
    const client = await w.connect(w.keys.alice);
    const started = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "change_delivery_address", entity_id: "ord_paid" },
      }),
    );
    expect(started.status).toBe("open");
    const advanced = sc(
      await client.callTool({
        name: "advance_action",
        arguments: {
          action_id: started.action_id,
          version: started.version,
          patch: { address_id: "Office" },
        },
      }),
    );
    expect(advanced).toMatchObject({ outcome: "input_required", status: "open" });
  });
});
