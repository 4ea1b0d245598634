import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Played (demo, as Sam): words that hold two asks, each its own capability and most on a record of
 * its own, went wrong three ways. "Mark the headphones ticket as pending and give it to Sara" was
 * refused as ambiguous ("as" cut "pending" off as an ask alone). "Assign the wrong size tee ticket
 * to Sid and resolve the headphones ticket: parcel found" started the resolve on the tee ticket,
 * read from the assignment's words, saying it was "the only one that fits". "… and close the
 * headphones ticket" (open: close cannot take it, resolve does) resolved the tee ticket and said
 * nothing of the assignment. Each ask is read from its own words: nothing changes a record its
 * ask did not name, and the other ask runs in the same call or is said with its one call.
 */
describe("two asks on two records: each on the record its own words name (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const ticket = (id: string) => legacyJson(w.legacy, `tickets/${id}`);
  const order = (id: string) => legacyJson(w.legacy, `orders/${id}`);
  const start = async (key: string, intent: string) =>
    (await w.connect(key)).callTool({ name: "start_action", arguments: { intent } });
  const openActions = () =>
    w.db.action.findMany({ where: { status: { notIn: ["completed", "cancelled", "refused", "failed"] } } });

  it("'Mark the headphones ticket as pending and give it to Sara.': both done, on that ticket", async () => {
    const out = await start(w.keys.sam, "Mark the headphones ticket as pending and give it to Sara.");
    expect(sc(out)).toMatchObject({ capability: "set_ticket_status", status: "completed" });
    expect(sc(out).also_done).toEqual([
      expect.objectContaining({ capability: "assign_ticket", status: "completed" }),
    ]);
    expect(text(out)).not.toContain("ambiguous");
    expect(await ticket("tkt_2")).toMatchObject({ status: "pending", assignee_id: "tm_sara" });
  });

  it("a detail after the colon ends where the next ask begins: 'Resolve the tee ticket: sent an L. Also give it to Sara'", async () => {
    // Review 50: the resolution read "sent an L. Also give it to Sara", while the assignment was
    // also offered as its own ask.
    const out = await start(w.keys.sam, "Resolve the tee ticket: sent an L. Also give it to Sara");
    const summary = JSON.stringify(sc(out).summary);
    expect(summary).toContain("sent an L.");
    expect(summary).not.toContain("Sara");
    expect(text(out)).toMatch(/also asked: "give it to Sara" → start_action `\{"capability":"assign_ticket"/);
    expect((await ticket("tkt_9")).status).toBe("open");
  });

  it("one ask two capabilities fit about as well still says so", async () => {
    const out = await start(w.keys.sam, "Mark the headphones ticket");
    expect(sc(out).reason).toBe("ambiguous_intent");
    expect((await ticket("tkt_2")).status).toBe("open");
  });

  it("'Assign the wrong size tee ticket to Sid and resolve the headphones ticket: parcel found': each on its own ticket", async () => {
    const before = (await openActions()).length;
    const out = await start(
      w.keys.sam,
      "Assign the wrong size tee ticket to Sid and resolve the headphones ticket: parcel found",
    );
    expect(sc(out)).toMatchObject({
      capability: "assign_ticket",
      status: "completed",
      entity: { type: "Ticket", id: "tkt_9" },
    });
    expect(sc(out).also_done).toEqual([
      expect.objectContaining({ capability: "resolve_ticket", status: "completed" }),
    ]);
    expect(text(out)).not.toContain("also asked");
    // The tee ticket is assigned, never resolved; the headphones ticket is resolved.
    expect(await ticket("tkt_9")).toMatchObject({ status: "open", assignee_id: "tm_sid" });
    expect(await ticket("tkt_2")).toMatchObject({ status: "resolved", resolution: "parcel found" });
    expect((await openActions()).length).toBe(before);
  });

  it("'… to Sid and close the headphones ticket' (open): the close is offered as the resolve that takes it, on that ticket", async () => {
    const out = await start(
      w.keys.sam,
      "Give the wrong size tee ticket to Sid and close the headphones ticket",
    );
    expect(sc(out)).toMatchObject({ capability: "assign_ticket", status: "completed" });
    expect((sc(out).entity as Json).id).toBe("tkt_9");
    expect(sc(out).also_asked).toEqual([
      { words: "close the headphones ticket", capability: "resolve_ticket", entity_id: "tkt_2" },
    ]);
    expect(text(out)).toMatch(
      /^- also asked: "close the headphones ticket" → start_action .*"entity_id":"tkt_2"/m,
    );
    expect(await ticket("tkt_9")).toMatchObject({ status: "open", assignee_id: "tm_sid" });
    expect((await ticket("tkt_2")).status).toBe("open");
  });

  it("'… and resolve the headphones one: parcel found': 'one' names the record as its kind would", async () => {
    const out = await start(
      w.keys.sam,
      "Give the wrong size tee ticket to Sid, and resolve the headphones one: parcel found",
    );
    expect(sc(out)).toMatchObject({ capability: "assign_ticket", entity: { type: "Ticket", id: "tkt_9" } });
    expect(sc(out).also_done).toEqual([
      expect.objectContaining({ capability: "resolve_ticket", status: "completed" }),
    ]);
    expect(await ticket("tkt_9")).toMatchObject({ status: "open", assignee_id: "tm_sid" });
    expect(await ticket("tkt_2")).toMatchObject({ status: "resolved", resolution: "parcel found" });
  });

  it("the close asked first: resolved instead on the headphones ticket, and the assignment is said", async () => {
    const out = await start(
      w.keys.sam,
      "Close the headphones ticket and assign the wrong size tee ticket to Sid",
    );
    expect(sc(out)).toMatchObject({ capability: "resolve_ticket", entity: { type: "Ticket", id: "tkt_2" } });
    expect(String(sc(out).instead_of)).toMatch(/^close_ticket/);
    expect(sc(out).also_asked).toEqual([
      expect.objectContaining({
        words: "assign the wrong size tee ticket to Sid",
        capability: "assign_ticket",
      }),
    ]);
    expect(await ticket("tkt_9")).toMatchObject({ status: "open", assignee_id: null });
  });

  it("an order to the agent after an ask's detail is its own ask, never the resolution's text", async () => {
    const out = await start(
      w.keys.sam,
      "Resolve the headphones ticket: parcel found, and hand the wrong size tee ticket to Sid",
    );
    expect(sc(out)).toMatchObject({ capability: "resolve_ticket", entity: { type: "Ticket", id: "tkt_2" } });
    expect((sc(out).from_words as Json).resolution).toBe('"parcel found"');
    expect(sc(out).also_asked).toEqual([
      expect.objectContaining({
        words: "hand the wrong size tee ticket to Sid",
        capability: "assign_ticket",
      }),
    ]);
    expect((await ticket("tkt_9")).assignee_id).toBeNull();
  });

  it("as Alice: 'change the address of my lamp order to home and cancel my order that is waiting for payment'", async () => {
    const out = await start(
      w.keys.alice,
      "change the address of my lamp order to home and cancel my order that is waiting for payment",
    );
    expect(sc(out)).toMatchObject({
      capability: "change_delivery_address",
      status: "completed",
      entity: { type: "Order", id: "ord_paid" },
    });
    // The cancel is of the order waiting for payment, never the lamp order the first ask changed.
    expect(sc(out).also_asked).toEqual([
      {
        words: "cancel my order that is waiting for payment",
        capability: "cancel_unpaid_order",
        entity_id: "ord_pending",
      },
    ]);
    const lamp = await order("ord_paid");
    expect(lamp.status).toBe("paid");
    expect(lamp.address_id ?? (lamp.address as Json | undefined)?.id).toBe("addr_alice_home");
    expect((await order("ord_pending")).status).toBe("pending_payment");
  });

  it("as Alice: 'Pay for my kettle order by card and cancel my lamp order': the cancel is the lamp order's", async () => {
    // Played before the fix: a verb settled the tie on the cancel of unpaid orders, read from the
    // whole words: it cancelled the kettle order the user asked to pay, and said nothing else.
    // The first ask names the kettle order with its verb (pay), so paying it starts, waiting for
    // the user; the cancel is said with its own words, never on the kettle order.
    const out = await start(w.keys.alice, "Pay for my kettle order by card and cancel my lamp order");
    expect(sc(out), text(out)).toMatchObject({
      capability: "pay_order",
      entity: { type: "Order", id: "ord_pending" },
      status: "awaiting_approval",
    });
    expect(sc(out).also_asked).toEqual([
      expect.objectContaining({ words: "cancel my lamp order", capability: "after_sales" }),
    ]);
    expect((await order("ord_pending")).status).toBe("pending_payment");
    expect((await order("ord_paid")).status).toBe("paid");
  });
});
