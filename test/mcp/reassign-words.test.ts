import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set BR (played, Sam in the demo helpdesk): "Take Sid off the where are my headphones ticket and
 * give it to Sara." left the assignee missing (Sid, the holder the node leaves out of its choices,
 * tied with Sara) and offered "Take Sid off …" as a status change ("off hold"); alone, those words
 * tied the status change with unassigning; "… to Sara instead of Sid" ranked an address change
 * first and left the assignment out. Seed: tkt_2 (open, Sid, shipping); Sara (shipping), Bella
 * (billing) active; Bruno inactive. Real MCP client over HTTP, gateway and legacy helpdesk.
 */
describe("reassigning a ticket by words", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const start = async (intent: string, dryRun = false) =>
    (await w.connect(w.keys.sam)).callTool({
      name: "start_action",
      arguments: { intent, ...(dryRun ? { dry_run: true } : {}) },
    });
  const assigned = async (intent: string) => {
    const out = sc(await start(intent, true));
    return {
      capability: out.capability,
      to: (out.from_words as Record<string, string> | undefined)?.assignee_id,
    };
  };

  it("the one offered teammate the words give it to is taken; the holder taken off is part of it, never another ask", async () => {
    const out = await start("Take Sid off the where are my headphones ticket and give it to Sara.");
    expect(sc(out)).toMatchObject({ capability: "assign_ticket", status: "completed" });
    expect(sc(out).also_asked).toBeUndefined();
    expect(text(out)).not.toMatch(/set_ticket_status|also asked/);
    // Nothing but the assignment changed, and nothing else was started for "take Sid off".
    expect(await legacyJson(w.legacy, "tickets/tkt_2")).toMatchObject({
      assignee_id: "tm_sara",
      status: "open",
    });
    expect(await w.db.action.count({ where: { capability: { not: "assign_ticket" } } })).toBe(0);
  });

  // Set DD (both hosts): sent on the ticket's form, "Take the headphones ticket away from Sid" (no
  // capability's words fit it alone) was said "not done" beside the verified reassignment.
  it("sent on the form, the holder taken away is part of the reassignment, never said not done", async () => {
    const out = await (await w.connect(w.keys.sam)).callTool({
      name: "submit",
      arguments: {
        uri: "helpdesk://ticket/tkt_2/assign",
        fields: { user_words: "Take the headphones ticket away from Sid and give it to Sara." },
      },
    });
    expect(text(out)).toMatch(/applied:\*\* Assign the ticket: done/);
    expect(text(out)).not.toMatch(/not done|also asked/);
  });

  it("'from Sid to Sara' takes Sara; an inactive teammate, a denied or set-apart one is never taken", async () => {
    expect(await assigned("Reassign the headphones ticket from Sid to Sara")).toEqual({
      capability: "assign_ticket",
      to: "tm_sara",
    });
    expect((await assigned("Give the headphones ticket to Sara, not Bella")).to).toBe("tm_sara");
    expect((await assigned("Give the headphones ticket to Bella instead of Sara")).to).toBe("tm_bella");
    // Bruno is inactive: taken for his name, the node refuses him, and nobody else stands in.
    const bruno = sc(await start("Give the headphones ticket to Bruno", true));
    expect(JSON.stringify(bruno.validation_errors)).toMatch(/teammate_inactive/);
    expect(bruno.summary ?? null).toBeNull();
    for (const intent of [
      "Take Sid off the headphones ticket and give it to Bruno",
      "Give the headphones ticket to Bruno, Sara is busy",
      "Take Sid off the headphones ticket, give it to Sara or Bella",
    ]) {
      const { to } = await assigned(intent);
      expect(to, intent).toBeUndefined();
    }
  });

  it("'… to Sara instead of Sid' is the assignment, not an address change", async () => {
    const out = await start("Give the headphones ticket to Sara instead of Sid");
    expect(sc(out)).toMatchObject({ capability: "assign_ticket", status: "completed" });
    expect((await legacyJson(w.legacy, "tickets/tkt_2")).assignee_id).toBe("tm_sara");
  });

  it("'Take Sid off the … ticket' names its holder: unassigning, for the person to approve; no status changes", async () => {
    const out = await start("Take Sid off the where are my headphones ticket.");
    expect(sc(out)).toMatchObject({ capability: "unassign_ticket", status: "awaiting_approval" });
    expect(String(sc(out).picked_because)).toMatch(/assignee_id tm_sid/);
    expect(await legacyJson(w.legacy, "tickets/tkt_2")).toMatchObject({
      assignee_id: "tm_sid",
      status: "open",
    });
  });

  it("beside a status change, 'take Sid off it' is offered as unassigning, not done by the status change", async () => {
    const out = await start("Put the headphones ticket on hold and take Sid off it");
    expect(sc(out)).toMatchObject({ capability: "set_ticket_status", status: "completed" });
    expect(sc(out).also_asked).toEqual([
      expect.objectContaining({
        words: "take Sid off it",
        capability: "unassign_ticket",
        entity_id: "tkt_2",
      }),
    ]);
    // Offered, never run here: the person approves taking Sid off.
    expect(await legacyJson(w.legacy, "tickets/tkt_2")).toMatchObject({
      assignee_id: "tm_sid",
      status: "pending",
    });
  });

  // Review 61c: the holder named as a speaker or a doer, or an alternative offered, names no value
  // replaced: the tie stands and nothing runs (the first version assigned Sara at once).
  it("the holder named other than as what is replaced, or an alternative: nothing runs", async () => {
    for (const intent of [
      "Remind Sid to give the headphones ticket to Sara",
      "Sid wants to give the headphones ticket to Sara, what do you think?",
      "Give the headphones ticket to Sara or leave it with Sid",
      "Give tkt_2 to Sara and have Sid take tkt_9",
    ]) {
      await start(intent);
      expect((await legacyJson(w.legacy, "tickets/tkt_2")).assignee_id, intent).toBe("tm_sid");
      expect((await legacyJson(w.legacy, "tickets/tkt_9")).assignee_id, intent).toBeNull();
    }
  });

  // Review 61d: the row named as replaced must be the one the record holds now.
  it("a teammate named as replaced who does not hold the ticket: nothing runs", async () => {
    await start("Remove Bruno from tkt_2 and assign it to Sara");
    expect((await legacyJson(w.legacy, "tickets/tkt_2")).assignee_id).toBe("tm_sid");
  });
});
