import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

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

  // Review 66: other inflections, Chinese, split phrases and words both ways ran the change; a
  // negated word, an adjective and a comparison in a description stopped a change asked plainly.
  it("reads the way in any form the words say it, and only where they ask it", async () => {
    const sam = await w.connect(w.keys.sam);
    const start = async (intent: string) => {
      const res = await sam.callTool({ name: "start_action", arguments: { intent, dry_run: true } });
      return { out: sc(res), text: text(res) };
    };
    // tkt_4 is low: each would raise it.
    for (const intent of [
      "Please get the change delivery address ticket lowered to normal.",
      "Lowering the change delivery address ticket to normal priority, thanks.",
      "Decreasing tkt_4 to normal.",
      "De-prioritize the change delivery address ticket to normal.",
      "Drop the change delivery address ticket down to normal priority.",
      "Bring tkt_4 down to normal priority.",
      "把 tkt_4 的优先级降低到 normal",
      "Decrease tkt_4 priority to normal, it is higher than tkt_7.",
      "Make the change delivery address ticket less urgent: normal.",
    ]) {
      const { text: said } = await start(intent);
      expect(said, intent).toMatch(
        /the words say .*but its priority is low now: (normal|urgent) would raise it/,
      );
    }
    // Asked plainly; the direction words are negated, descriptive, or not about the change.
    for (const intent of [
      "Don't lower the charged twice ticket, make it urgent.",
      "The customer wants a lower price; make tkt_4 urgent.",
      "Set the charged twice ticket to low, its priority is higher than it should be.",
      "Bump tkt_1 down to normal.",
    ]) {
      const { text: said } = await start(intent);
      expect(said, intent).not.toContain("the words say");
      expect(said, intent).toContain("ready to confirm");
    }
    expect(await legacyJson(w.legacy, "tickets/tkt_4")).toMatchObject({ priority: "low" });
  });
});
