import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Issue 23: Sam said "Make every urgent ticket high priority instead." The start read "urgent"
 * (the description of the tickets) as the new priority, and the model's retry with tkt_9 was
 * told "the user's words do not name it and 4 other records would take this change too", though
 * tkt_9 is the only urgent ticket. Words in the record's name phrase describe it, whatever other
 * field's value they also are; a description that fits one record names it; where it fits
 * several, the answer asks about those alone. Real MCP client over HTTP, gateway and legacy.
 */
describe("a described set names the records it fits (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const priority = async (id: string) =>
    (
      (await (
        await fetch(`${w.legacy.url}/v1/tickets/${id}`, {
          headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
        })
      ).json()) as Json
    ).priority;

  it.each([
    ["Make every urgent ticket high priority instead.", "high"],
    ["Make the urgent ticket low priority", "low"],
  ])("'%s' changes the one urgent ticket, to the priority said after it", async (intent, to) => {
    const sam = await w.connect(w.keys.sam);
    const out = sc(await sam.callTool({ name: "start_action", arguments: { intent } }));
    expect(out).toMatchObject({ capability: "change_ticket_priority", status: "completed" });
    expect(out.from_words).toMatchObject({ ticket_id: "tkt_9", priority: to });
    expect(out.ask_user).toBeUndefined();
    expect(await priority("tkt_9")).toBe(to);
  });

  it("the played retry (tkt_9 sent with the same words) runs at once: the words name it", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        intent: "Make every urgent ticket high priority instead.",
        capability: "change_ticket_priority",
        entity_id: "tkt_9",
        patch: { priority: "high" },
      },
    });
    expect(sc(out).ask_user).toBeUndefined();
    expect(sc(out).status).toBe("completed");
    expect(text(out)).not.toContain("ask the user");
    expect(await priority("tkt_9")).toBe("high");
  });

  it("a value said after the record is still what to do: 'every open billing ticket urgent'", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = sc(
      await sam.callTool({
        name: "start_action",
        arguments: { intent: "Make every open billing ticket urgent" },
      }),
    );
    expect(out.from_words).toMatchObject({ ticket_id: "tkt_1", priority: "urgent" });
  });

  it("where the words fit several, the user is asked about those alone, never the records they exclude", async () => {
    const sam = await w.connect(w.keys.sam);
    const start = (intent: string, id: string) =>
      sam.callTool({
        name: "start_action",
        arguments: {
          intent,
          capability: "change_ticket_priority",
          entity_id: id,
          patch: { priority: "high" },
        },
      });
    // Shipping tickets: tkt_9, tkt_2, tkt_4; the billing ones are not asked about.
    const shipping = await start("Make the shipping ticket high priority", "tkt_2");
    const ask = sc(shipping).ask_user as Json;
    expect(ask.message).toContain("tkt_2 was sent, but the user's words fit 2 other records too");
    expect((ask.candidates as string[]).map((c) => c.split(" ")[0])).toEqual(["tkt_9", "tkt_2", "tkt_4"]);
    // tkt_9 is urgent: "every normal ticket" describes others, and only those are listed.
    const normal = await start("Make every normal ticket high priority", "tkt_9");
    const other = sc(normal).ask_user as Json;
    expect(other.message).toContain("tkt_9 was sent, but the user's words describe 3 other records instead");
    expect(text(normal)).not.toMatch(/would take this change too|tkt_4|tkt_1\b/);
    // Words that describe nothing still ask among all that could take it.
    const bare = sc(await start("Make it high priority", "tkt_2")).ask_user as Json;
    expect(bare.message).toContain("4 other records would take this change too");
    expect(await priority("tkt_2")).toBe("normal");
  });
});
