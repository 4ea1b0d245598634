import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc } from "./mcp-world";

/**
 * Set CP: "Lower the change delivery address ticket to normal priority." raised the ticket from
 * low to normal at once (a change nobody approves), against the word "lower"; the wrapper's model
 * saw the ticket was low and asked. A value on a scale the words move the other way is not taken:
 * the user is asked, and their answer, sent, stands. Real MCP client over HTTP, gateway and legacy.
 */
describe("a scaled value against the way the words say", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("'lower … to normal' on a low ticket asks; the user's answer then runs", async () => {
    const sam = await w.connect(w.keys.sam);
    const res = await sam.callTool({
      name: "start_action",
      arguments: { intent: "Lower the change delivery address ticket to normal priority." },
    });
    const out = sc(res);
    expect(out).toMatchObject({ outcome: "input_required", capability: "change_ticket_priority" });
    const text = JSON.stringify(res.content);
    expect(text).toContain('the words say \\"lower\\", but its priority is low now: normal would raise it');
    expect(await legacyJson(w.legacy, "tickets/tkt_4")).toMatchObject({ priority: "low" });
    // The user says: normal, as asked.
    const after = sc(
      await sam.callTool({
        name: "advance_action",
        arguments: { action_id: out.action_id, version: out.version, patch: { priority: "normal" } },
      }),
    );
    expect(after.outcome).toBe("applied");
    expect(await legacyJson(w.legacy, "tickets/tkt_4")).toMatchObject({ priority: "normal" });
  });

  it("the words' way and the value agree: it runs; a longer phrase is read over one inside it", async () => {
    const sam = await w.connect(w.keys.sam);
    const start = async (intent: string) =>
      sc(await sam.callTool({ name: "start_action", arguments: { intent } }));
    expect(await start("Raise the change delivery address ticket to normal priority.")).toMatchObject({
      outcome: "applied",
    });
    expect(await legacyJson(w.legacy, "tickets/tkt_4")).toMatchObject({ priority: "normal" });
    expect(await start("De-escalate the charged twice ticket to normal.")).toMatchObject({
      outcome: "applied",
    });
    expect(await legacyJson(w.legacy, "tickets/tkt_1")).toMatchObject({ priority: "normal" });
    // Escalating the urgent tee ticket "to high" would lower it.
    expect(await start("Escalate the wrong size tee ticket to high.")).toMatchObject({
      outcome: "input_required",
    });
    expect(await legacyJson(w.legacy, "tickets/tkt_9")).toMatchObject({ priority: "urgent" });
  });
});
