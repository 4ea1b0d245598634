import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;
type Comment = { body: string; internal: boolean };

/**
 * Played (demo, as Sam): "Give the wrong size tee ticket to Sid and add an internal note:
 * 'Customer wants L, check stock.'" assigned the ticket, then offered `also asked: "add an
 * internal note"` with no text: the words were cut into asks at the quote's comma, and the note's
 * ask lost what the user quoted for it. Quoted text is one piece that stays with its ask, and a
 * second ask that names no record is on the record the sentence is about: both run in one call,
 * as set Y's "… urgent and add an internal note: '…'" did.
 */
describe("text the user quotes stays with its ask (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const notes = async (id: string) =>
    ((await legacyJson(w.legacy, `tickets/${id}/comments`)) as { data?: Comment[] }).data ?? [];
  const start = async (intent: string) =>
    (await w.connect(w.keys.sam)).callTool({ name: "start_action", arguments: { intent } });

  for (const [quote, body] of [
    ["'Customer wants L, check stock.'", "Customer wants L, check stock."],
    ['"Customer wants L, check stock."', "Customer wants L, check stock."],
    ["'Refund sent and ticket closed.'", "Refund sent and ticket closed."],
    ["‘Customer wants L: check stock, then call.’", "Customer wants L: check stock, then call."],
  ])
    it(`"… to Sid and add an internal note: ${quote}": both done, the note's text the quote whole`, async () => {
      const out = await start(`Give the wrong size tee ticket to Sid and add an internal note: ${quote}`);
      expect(sc(out)).toMatchObject({ capability: "assign_ticket", status: "completed" });
      expect(text(out)).not.toContain("also asked");
      const done = sc(out).also_done as Json[];
      expect(done).toHaveLength(1);
      expect(done[0]).toMatchObject({ capability: "comment_ticket", status: "completed" });
      expect(done[0]?.words).toContain(quote);
      expect((await legacyJson(w.legacy, "tickets/tkt_9")).assignee_id).toBe("tm_sid");
      const added = (await notes("tkt_9")).filter((c) => c.internal);
      expect(added.map((c) => c.body)).toEqual([body]);
    });

  it("the note asked first: its text is the quote alone, and the assignment after it runs too", async () => {
    const out = await start(
      "Add an internal note: 'Customer wants L, check stock.' and give the wrong size tee ticket to Sid",
    );
    expect(sc(out)).toMatchObject({ capability: "comment_ticket", status: "completed" });
    expect(sc(out).also_done).toEqual([expect.objectContaining({ capability: "assign_ticket" })]);
    expect((await notes("tkt_9")).filter((c) => c.internal).map((c) => c.body)).toEqual([
      "Customer wants L, check stock.",
    ]);
    expect((await legacyJson(w.legacy, "tickets/tkt_9")).assignee_id).toBe("tm_sid");
  });

  it("'… and add an internal note saying ‘…’': the quote after 'saying' is the note's text", async () => {
    const out = await start(
      "Give the wrong size tee ticket to Sid and add an internal note saying ‘Customer wants L, check stock.’",
    );
    expect(sc(out).also_done).toEqual([
      expect.objectContaining({ capability: "comment_ticket", status: "completed" }),
    ]);
    expect((await notes("tkt_9")).filter((c) => c.internal).map((c) => c.body)).toEqual([
      "Customer wants L, check stock.",
    ]);
  });

  it("'…, add an internal note saying ‘…’ and set it to pending': the quote is the note's whole, the ask after it its own", async () => {
    const quote = "‘Checked, and no L in stock.’";
    const out = await start(
      `Give the wrong size tee ticket to Sid, add an internal note saying ${quote} and set it to pending`,
    );
    expect(sc(out).status).toBe("completed");
    expect(await legacyJson(w.legacy, "tickets/tkt_9")).toMatchObject({
      assignee_id: "tm_sid",
      status: "pending",
    });
    // The status change ran first here, and a ticket is named before the note's ask: which one the
    // note is for is the user's to say (review 49), so it is offered, with its text whole.
    const said = [...((sc(out).also_done as Json[]) ?? []), ...((sc(out).also_asked as Json[]) ?? [])];
    const note = said.find((a) => a.capability === "comment_ticket");
    expect(note?.words).toBe(`add an internal note saying ${quote}`);
    expect(text(out)).not.toMatch(/also asked: "(Checked|and no L)/);
  });
});
