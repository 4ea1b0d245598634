import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Words that ask two changes nobody approves ("assign the headphones ticket to Sara and set it
 * to pending") run both in the one call, where the first ran at once (sets O–T: a call per ask,
 * where the legacy API's one PATCH did both). An ask whose start would stop is not left started.
 */
describe("other asks run in the same call where they need nobody (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const legacy = (path: string) => legacyJson(w.legacy, path);
  const ticket = (id: string) => legacy(`tickets/${id}`);
  const openActions = async () =>
    w.db.action.findMany({ where: { status: { notIn: ["completed", "cancelled", "refused", "failed"] } } });

  it("'Assign the headphones ticket to Sara and set it to pending.': one call, both done", async () => {
    const sam = await w.connect(w.keys.sam);
    const before = (await openActions()).length;
    const out = await sam.callTool({
      name: "start_action",
      arguments: { intent: "Assign the headphones ticket to Sara and set it to pending." },
    });
    expect(sc(out).status).toBe("completed");
    const done = sc(out).also_done as Json[];
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ status: "completed" });
    expect(text(out)).toMatch(/^also done: ".+" → (assign_ticket|set_ticket_status) `[a-z0-9]+`: /m);
    expect(sc(out).also_asked).toBeUndefined();
    // The line says what the other change was done with, not only the record.
    expect(text(out)).toMatch(/^also done: .*done with: .*(Sara Shipping|pending)/m);
    expect(text(out)).not.toContain("also asked");
    const after = await ticket("tkt_2");
    expect(after).toMatchObject({ status: "pending", assignee_id: "tm_sara" });
    expect((await openActions()).length).toBe(before);
  });

  it("an ask a person must approve is not run: it stays offered as its one call", async () => {
    const sam = await w.connect(w.keys.sam);
    // Another team's ticket: moving it asks an admin's approval (the helpdesk's policy).
    const out = await sam.callTool({
      name: "start_action",
      arguments: { intent: "Set the headphones ticket to pending and move it to the billing team." },
    });
    expect(sc(out).status).toBe("completed");
    expect(sc(out).also_done).toBeUndefined();
    expect(text(out)).toContain("also asked");
    expect((await ticket("tkt_2")).team_id).toBe("shipping");
  });

  it("nothing else runs where the first change waits on a person", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Pay my unpaid kettle order with my card and send it to my home." },
    });
    expect(sc(out).status).not.toBe("completed");
    expect(sc(out).also_done).toBeUndefined();
    expect(((await legacy("orders/ord_pending")).address as { id: string }).id).toBe("addr_alice_office");
  });

  it("a start naming its capability (a form's submit with the user's words) reads the other asks too", async () => {
    // Set V: "Move the charged twice ticket to the shipping team and give it to Sara." sent to the
    // team form with the user's words said nothing of Sara; named, the start now says it.
    const sam = await w.connect(w.keys.sam);
    const words = "Set the headphones ticket to pending and lower it to low priority.";
    const out = await sam.callTool({
      name: "start_action",
      arguments: { capability: "set_ticket_status", entity_id: "tkt_2", intent: words },
    });
    expect(sc(out).status).toBe("completed");
    expect(text(out)).toMatch(/^also done: ".+" → change_ticket_priority /m);
    expect(await ticket("tkt_2")).toMatchObject({ status: "pending", priority: "low" });
    // A form's submit: the page says the ask a person must approve, with its one call.
    const page = await sam.callTool({
      name: "submit",
      arguments: {
        uri: "helpdesk://ticket/tkt_1/team",
        fields: {
          team_id: "shipping",
          user_words: "Move the charged twice ticket to the shipping team and give it to Sara.",
        },
      },
    });
    expect(text(page)).toMatch(
      /^also asked: "[^"\n]*Sara[^"\n]*" → start_action `\{"capability":"assign_ticket"/m,
    );
    expect(text(page)).not.toMatch(/^- also asked/m);
    // A preview (dry run) reads no other ask: nothing is started from it.
    const preview = await sam.callTool({
      name: "start_action",
      arguments: {
        capability: "set_ticket_status",
        entity_id: "tkt_9",
        intent: words.replace("headphones", "wrong size"),
        dry_run: true,
      },
    });
    expect(sc(preview).also_done).toBeUndefined();
    expect(sc(preview).also_asked).toBeUndefined();
  });

  it("an ask whose best match cannot take the record is offered as the one that can, never said undone (set Z)", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Ship my kettle order to my home instead, and pay for it by card." },
    });
    expect(sc(out).status).toBe("completed");
    expect(text(out)).not.toContain("not done");
    expect(text(out)).toMatch(
      /^- also asked: "pay for it by card" → start_action `\{"capability":"pay_order","entity_id":"ord_pending"/m,
    );
    // Offered, not run: the payment waits for the person's approval on its own start.
    expect((await legacy("orders/ord_pending")).status).toBe("pending_payment");
  });
});
