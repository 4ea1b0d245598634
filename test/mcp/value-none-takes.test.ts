import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set CY (played, both hosts, 3 calls each): "Switch my unpaid order to express shipping."
 * answered "several capabilities match about as well" with an address change and a payment; the
 * models opened the order and searched to learn that nothing changes a placed order's shipping.
 * The wrapper's model said so at once from its tools' schemas. A value the words set that no
 * match takes (while a capability for a new order does) is now the answer, in one call.
 */
describe("a value no match takes is said at once (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const call = async (key: string, name: string, args: Record<string, unknown>) =>
    (await w.connect(key)).callTool({ name, arguments: args });

  it("a placed order's shipping method: refused in one call, naming who takes it; nothing started", async () => {
    const before = await w.db.action.count();
    for (const intent of ["Switch my unpaid order to express shipping.", "Ship my unpaid order by express"]) {
      const out = await call(w.keys.alice, "start_action", { intent });
      expect(sc(out), text(out)).toMatchObject({ outcome: "rejected", reason: "no_capability_takes_value" });
      expect(text(out)).toMatch(
        /changes `shipping_method` \(`express` is one of its values\): only `checkout` \(when it makes a new order\)/,
      );
    }
    expect(await w.db.action.count()).toBe(before);
    const found = await call(w.keys.alice, "search_capabilities", {
      query: "Switch my unpaid order to express shipping.",
    });
    expect(text(found)).toMatch(/none surely: None of the matching capabilities changes `shipping_method`/);
  });

  // Set DC (both hosts, 3 calls): the words clearly meant the address change ("delivery"), which
  // started and asked for an address; the value they set after "to" is what none takes.
  it("a clear match that does not take the value the words set after to/by: refused, nothing started", async () => {
    const before = await w.db.action.count();
    for (const intent of [
      "Change my lamp order to express delivery.",
      "Switch the lamp order's delivery to same-day",
    ]) {
      const out = await call(w.keys.alice, "start_action", { intent });
      expect(sc(out), text(out)).toMatchObject({ outcome: "rejected", reason: "no_capability_takes_value" });
      expect(text(out)).toMatch(/only `checkout` \(when it makes a new order\) takes it/);
    }
    expect(await w.db.action.count()).toBe(before);
    // Beside the field's name only, the value may describe rather than set: the change starts.
    const moved = await call(w.keys.alice, "start_action", {
      intent: "Change the delivery address of my lamp order to my home, standard shipping",
      dry_run: true,
    });
    expect(sc(moved), text(moved)).toMatchObject({
      capability: "change_delivery_address",
      outcome: "preview",
    });
  });

  // Review 68: "to"/"by" before a value in words that change nothing to it refused the change meant.
  it("a value after to/by that no change verb sets refuses nothing on a clear match", async () => {
    for (const intent of [
      "Refund the shipping on my backpack order: I paid for express but it came by standard.",
      "The lamp from my lamp order is not up to standard, I want to return it for a refund.",
      "Cancel my kettle order, I want to express my disappointment.",
      "Pay my kettle order by card, it can go by standard shipping.",
      "Change the delivery address of my lamp order to my office, it is going by express.",
      // Review 68b: a verb of changing inside the clause, not opening it.
      "Refund the shipping on my kettle order: I paid to upgrade to express and it still came a week late",
      "I was charged for same day delivery on my kettle order though I set it to standard, refund the difference",
    ]) {
      const out = await call(w.keys.alice, "start_action", { intent, dry_run: true });
      expect(sc(out).reason, `${intent}\n${text(out)}`).not.toBe("no_capability_takes_value");
    }
  });

  it("words whose match takes the value start as before", async () => {
    const buy = await call(w.keys.alice, "start_action", {
      intent: "Buy a mug, express shipping to my office, pay by card",
      dry_run: true,
    });
    expect(sc(buy)).toMatchObject({ capability: "checkout", outcome: "preview" });
    const pay = await call(w.keys.alice, "start_action", {
      intent: "Pay my unpaid order by card",
      dry_run: true,
    });
    expect(sc(pay).capability).toBe("pay_order");
    const urgent = await call(w.keys.sam, "start_action", {
      intent: "Set the charged twice ticket to urgent",
      dry_run: true,
    });
    expect(sc(urgent).capability).toBe("change_ticket_priority");
  });

  it("a refusal on the record the words name says the value no capability there takes (set DA)", async () => {
    const out = await call(w.keys.alice, "start_action", {
      intent: "Upgrade my unpaid kettle order to same-day delivery.",
    });
    expect(sc(out).outcome).toBe("rejected");
    expect(text(out)).toMatch(
      /No capability does what these words ask on ord_pending: None of the matching capabilities changes `shipping_method` \(`same_day` is one of its values\)/,
    );
  });

  // Set DB (both hosts): the form sent on the kettle ticket was held, "the user's words describe
  // another record instead" naming the ticket titled "Change delivery address" (low priority):
  // the verb and the value set are the change's words, not the record's.
  it("the verb and the value a change sets never describe another record", async () => {
    await w.legacy.reset();
    const out = await call(w.keys.sam, "submit", {
      uri: "helpdesk://ticket/tkt_3/priority",
      fields: { priority: "low", user_words: "Change the priority of the kettle refund ticket to low." },
    });
    expect(text(out)).toMatch(/applied:\*\* Change the ticket's priority: done/);
    expect(text(out)).not.toMatch(/describe another record/);
    // Review 67c: a first word before a noun names the record ("Late delivery ticket" is the
    // closed tkt_8), never read as the verb: sent on tkt_4, it is still held.
    for (const [uri, fields] of [
      [
        "helpdesk://ticket/tkt_4/priority",
        { priority: "high", user_words: "Late delivery ticket: raise it to high." },
      ],
      [
        "helpdesk://ticket/tkt_4/status",
        { status: "open", user_words: "Late delivery ticket: set it to open" },
      ],
    ] as const) {
      await w.legacy.reset();
      const held = await call(w.keys.sam, "submit", { uri, fields });
      expect(text(held), uri).toMatch(/describe another record instead/);
    }
  });

  // Review 67b: "card" is a payment's and a refund's value (a match taking it under another field
  // still takes it); words describing a ticket by its priority or status named a field that
  // changes tickets there are, not one only a new record takes.
  it("a value any match takes, or one a capability for the record there takes, refuses nothing", async () => {
    for (const [key, intent] of [
      [w.keys.alice, "Handle the payment of my kettle order by card"],
      [w.keys.sam, "Handle the pending status ticket about the kettle refund"],
      [w.keys.sam, "Work on the urgent priority ticket about the wrong size tee"],
    ] as const) {
      const out = await call(key, "start_action", { intent, dry_run: true });
      expect(sc(out).reason, `${intent}\n${text(out)}`).not.toBe("no_capability_takes_value");
    }
    const pay = await call(w.keys.alice, "search_capabilities", { query: "Pay my unpaid order by card" });
    expect(text(pay)).toMatch(/the first fits best/);
  });

  // Review 67c (older than this stop): the wrong order's id sent beside words naming another
  // order by its state moved the unpaid kettle order at once (an address change needs nobody).
  it("words naming a record by a state the sent one is not in hold the change, never run it", async () => {
    await w.legacy.reset();
    const held = await call(w.keys.alice, "start_action", {
      capability: "change_delivery_address",
      entity_id: "ord_pending",
      intent: "Delivered kettle order: ship it to my home instead",
    });
    expect(sc(held).status, text(held)).toBe("open");
    expect(text(held)).toMatch(/ord_delivered/);
    const ran = await call(w.keys.alice, "start_action", {
      capability: "change_delivery_address",
      entity_id: "ord_pending",
      intent: "Ship my kettle order to my home",
    });
    expect(sc(ran).status, text(ran)).toBe("completed");
  });
});
