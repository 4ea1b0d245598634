import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Review 51 and set AE, over real MCP calls: a question asks for no change (nor does a repeat of
 * it: "…? And the tee ticket too"); a held change is replaced only by the same change sent again;
 * the same ask made again with the user's answer after a refusal is on the record their words named.
 */
describe("what runs at once after this stop's asks (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => {
    await w.legacy.reset();
    await w.db.action.deleteMany({});
  });

  const ticket = async (id: string) =>
    (await (
      await fetch(`${w.legacy.url}/v1/tickets/${id}`, {
        headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
      })
    ).json()) as Json;
  const start = async (args: Json) =>
    (await w.connect(w.keys.sam)).callTool({ name: "start_action", arguments: args });

  it("a question changes nothing, and neither does the record said again after it", async () => {
    const out = await start({ intent: "Is the headphones ticket assigned to Sara? And the tee ticket too" });
    expect(sc(out).status).not.toBe("completed");
    expect(text(out)).toContain(
      "the user's words ask a question, not for this change, so nothing ran on tkt_2",
    );
    expect(text(out)).not.toMatch(/also done/);
    expect((await ticket("tkt_2")).assignee_id).toBe("tm_sid");
    expect((await ticket("tkt_9")).assignee_id ?? null).toBeNull();
    // An ask for the change still runs it.
    const asked = await start({ intent: "Assign the headphones ticket to Sara, and the tee ticket too" });
    expect(sc(asked).status).toBe("completed");
    expect((await ticket("tkt_9")).assignee_id).toBe("tm_sara");
  });

  it("a held comment is replaced only by the same comment sent again", async () => {
    const held = await start({
      capability: "comment_ticket",
      entity_id: "tkt_3",
      patch: { body: "Customer called, wants a callback tomorrow.", internal: true },
    });
    expect(sc(held).status).toBe("open");
    const other = await start({
      capability: "comment_ticket",
      entity_id: "tkt_3",
      patch: { body: "Your refund was approved.", internal: false },
      intent: "Tell the customer on tkt_3: 'Your refund was approved.'",
    });
    expect(sc(other).status).toBe("completed");
    expect(text(other)).not.toMatch(/replaces held/);
    const kept = await w.db.action.findUniqueOrThrow({ where: { id: String(sc(held).action_id) } });
    expect(kept.status).toBe("open");
  });

  it("refused for the assignee, the same change with the user's choice runs on the ticket their words named", async () => {
    const refused = await start({ intent: "Give the charged twice ticket to Bruno and make it urgent." });
    expect(sc(refused).status).toBe("refused");
    // The user picks Bella; the agent sends the change on the same ticket, with no words of its own.
    const again = await start({
      capability: "assign_ticket",
      entity_id: "tkt_1",
      patch: { assignee_id: "tm_bella" },
    });
    expect(sc(again).status).toBe("completed");
    expect((await ticket("tkt_1")).assignee_id).toBe("tm_bella");
    // Another change on that ticket, with no words, still waits for the user's word.
    const other = await start({
      capability: "change_ticket_priority",
      entity_id: "tkt_1",
      patch: { priority: "low" },
    });
    expect(sc(other).status).toBe("open");
  });
});
