import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Issue 23 (real agents on our MCP tools): "Assign the headphones ticket to Sara, and the tee
 * ticket too." assigned the headphones ticket, said "next: none (flow finished)" and never named
 * the tee ticket. A clause with no verb of its own naming another record ("and the X too", "X as
 * well", "also X", "same for X", "and X") says the ask before it again on that record: it is
 * handled as a second ask naming its own record is (run where the first ran at once and nobody
 * must approve it, else offered with its call), and the answer says it.
 */
describe("an ask said again on another record by ellipsis (MCP over HTTP)", () => {
  let w: McpWorld;
  // A world each: a same change's server key would answer a later case with an earlier run.
  beforeEach(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterEach(async () => w?.close());

  const ticket = async (id: string) => (await legacyJson(w.legacy, `tickets/${id}`)) as Json;
  const start = async (key: string, intent: string) =>
    (await w.connect(key)).callTool({ name: "start_action", arguments: { intent } });

  it("'Assign the headphones ticket to Sara, and the tee ticket too.': both assigned, both said", async () => {
    const out = await start(w.keys.sam, "Assign the headphones ticket to Sara, and the tee ticket too.");
    expect(sc(out).status, text(out)).toBe("completed");
    expect(text(out)).toMatch(/^also done: "Assign the tee ticket to Sara" → assign_ticket /m);
    expect(await ticket("tkt_2")).toMatchObject({ assignee_id: "tm_sara" });
    expect(await ticket("tkt_9")).toMatchObject({ assignee_id: "tm_sara" });
  });

  it("'Resolve … : refund issued, and the charged twice one as well': both resolved with that text", async () => {
    const out = await start(
      w.keys.sam,
      "Resolve the kettle refund ticket: refund issued, and the charged twice one as well",
    );
    expect(sc(out).status, text(out)).toBe("completed");
    expect(text(out)).toMatch(
      /^also done: "Resolve the charged twice ticket: refund issued" → resolve_ticket /m,
    );
    // The repeat is no part of the first ticket's resolution.
    expect(await ticket("tkt_3")).toMatchObject({ status: "resolved", resolution: "refund issued" });
    expect(await ticket("tkt_1")).toMatchObject({ status: "resolved", resolution: "refund issued" });
  });

  it("'Make the headphones ticket urgent, same for the charged twice ticket': both urgent", async () => {
    const out = await start(
      w.keys.sam,
      "Make the headphones ticket urgent, same for the charged twice ticket",
    );
    expect(text(out)).toMatch(
      /^also done: "Make the charged twice ticket urgent" → change_ticket_priority /m,
    );
    expect(await ticket("tkt_2")).toMatchObject({ priority: "urgent" });
    expect(await ticket("tkt_1")).toMatchObject({ priority: "urgent" });
  });

  it("a repeat on a closed ticket is said with why it is not done, never dropped ('same for the late delivery ticket')", async () => {
    const out = await start(
      w.keys.sam,
      "Make the headphones ticket urgent, same for the late delivery ticket",
    );
    expect(text(out)).not.toContain("no capability does it");
    // Set AZ: offered as its call, which its start would refuse; now said with the record's reason.
    expect(text(out)).toMatch(
      /^not done: "Make the late delivery ticket urgent" \(change_ticket_priority: The ticket is closed; reopen it first; tell the user\)$/m,
    );
    expect(await ticket("tkt_8")).toMatchObject({ priority: "normal" });
  });

  it("'Give tkt_2 to Sid and tkt_4 too': the first refused, the repeat offered with its own words whole", async () => {
    const out = await start(w.keys.sam, "Give tkt_2 to Sid and tkt_4 too");
    expect(text(out)).toContain(
      '"capability":"assign_ticket","entity_id":"tkt_4","intent":"Give tkt_4 to Sid"',
    );
  });

  it("'Assign the wrong size tee ticket and the headphones ticket to Sara': the words after both records are said of both", async () => {
    const out = await start(w.keys.sam, "Assign the wrong size tee ticket and the headphones ticket to Sara");
    expect(sc(out).status, text(out)).toBe("completed");
    expect(await ticket("tkt_9")).toMatchObject({ assignee_id: "tm_sara" });
    expect(await ticket("tkt_2")).toMatchObject({ assignee_id: "tm_sara" });
  });

  it("a repeat a person must approve is not run: another team's ticket stays unassigned, its call offered", async () => {
    const out = await start(
      w.keys.sam,
      "Assign the headphones ticket to Sara, and the charged twice one too",
    );
    expect(sc(out).also_done).toBeUndefined();
    expect(text(out)).toMatch(/^- also asked: "Assign the charged twice ticket to Sara" → start_action /m);
    expect(await ticket("tkt_2")).toMatchObject({ assignee_id: "tm_sara" });
    expect((await ticket("tkt_1")).assignee_id).toBeNull();
  });

  it("'Cancel my lamp order and also the kettle one': money waits for its approval, the kettle order is said", async () => {
    const out = await start(w.keys.alice, "Cancel my lamp order and also the kettle one");
    expect(sc(out).status).toBe("awaiting_approval");
    expect(sc(out).also_done).toBeUndefined();
    expect(text(out)).toMatch(/^- also asked: "Cancel the kettle order" → start_action /m);
    expect(((await legacyJson(w.legacy, "orders/ord_pending")) as Json).status).toBe("pending_payment");
  });

  it("'… and the other one too' picks no record: nothing runs on it, the user is asked which", async () => {
    const before = await ticket("tkt_9");
    const out = await start(w.keys.sam, "Make the headphones ticket low and the other one too");
    expect(sc(out).also_done).toBeUndefined();
    expect(text(out)).toMatch(
      /^- also asked: "Make the other ticket low" \\?\(its words pick no record: ask the user which/m,
    );
    expect(await ticket("tkt_2")).toMatchObject({ priority: "low" });
    expect((await ticket("tkt_9")).priority).toBe(before.priority);
  });
});
