import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, legacyRecord, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Review 53b: what the reading of words after an ask's colon (detail-as-ask.ts), of a verb and
 * where it puts its object, of an age word after the colon, and the shop's whole-order and
 * refund-destination stops got wrong, found through the real MCP client. Each test states what
 * the user's words mean; every one of them failed at 6869a81. Left open (the note says so): "Buy
 * the whole cart: same address as my headphones order" takes the headphones as the items (held
 * for the person's approval), and "put two tees in my cart" sets two where "add two" adds two.
 */
describe("review 53b findings (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const legacy = (path: string) => legacyRecord<Json>(w, path);
  const orderAddress = async (id: string) => ((await legacy(`/v1/orders/${id}`)).address as Json).id;
  const ticket = async (id: string) => legacy(`/v1/tickets/${id}`);
  const start = async (who: "alice" | "sam", intent: string) =>
    (await w.connect(w.keys[who])).callTool({ name: "start_action", arguments: { intent } });
  const from = (out: unknown) => (sc(out).from_words ?? {}) as Json;

  // High (regression of 35223c6/ca6af09): a refusal or a verbless statement after the colon is
  // read as the value, and the change needing no approval runs at once. At 5314b44 each stayed open.
  it.each([
    "Change the delivery address of my kettle order: anything but home",
    "Change the delivery address of my kettle order: avoid my home",
    "Change the delivery address of my kettle order: nobody home to sign for it",
    "Change the delivery address of my kettle order: moving out of my home next week",
    "Change the delivery address of my kettle order: away from home all month",
    "Change the delivery address of my kettle order: home burnt down",
  ])("the kettle order never moves home on words that refuse or explain: %s", async (intent) => {
    const out = await start("alice", intent);
    expect(sc(out).status, text(out)).not.toBe("completed");
    expect(from(out).address_id).not.toBe("addr_alice_home");
    expect(await orderAddress("ord_pending")).toBe("addr_alice_office");
  });

  it.each([
    "Assign tkt_1 to someone on billing: anyone but Bella",
    "Assign tkt_1 to someone on billing: avoid Bella",
    "Assign tkt_1 to a billing teammate: Bella off sick",
  ])("tkt_1 is never assigned to the teammate the words rule out: %s", async (intent) => {
    const out = await start("sam", intent);
    expect(from(out).assignee_id, text(out)).not.toBe("tm_bella");
    expect((await ticket("tkt_1")).assignee_id ?? null).toBeNull();
  });

  // High (already so at 5314b44): a priority or status the words refuse is set at once.
  it.each([
    ["Change the priority of tkt_2: not urgent", "priority", "urgent"],
    ["Change the priority of tkt_2, but not to urgent", "priority", "urgent"],
    ["Change the priority of tkt_2: anything but urgent", "priority", "urgent"],
    ["Set tkt_1's status to anything but pending", "status", "pending"],
    ["Set the status of tkt_1: avoid pending", "status", "pending"],
  ])("a refused value is never set: %s", async (intent, field, refused) => {
    const id = intent.includes("tkt_2") ? "tkt_2" : "tkt_1";
    const before = (await ticket(id))[field];
    const out = await start("sam", intent);
    expect(from(out)[field], text(out)).not.toBe(refused);
    expect((await ticket(id))[field]).toBe(before);
  });

  it.each(["Change the delivery address of my kettle order to anything but home"])(
    "(already so at 5314b44) a refused address is never taken: %s",
    async (intent) => {
      const out = await start("alice", intent);
      expect(sc(out).status, text(out)).not.toBe("completed");
      expect(await orderAddress("ord_pending")).toBe("addr_alice_office");
    },
  );

  // Medium: a checkout held for approval with the shipping the user refused.
  it.each([
    "Buy the whole cart: anything but express shipping, ship to my office, pay by card",
    "Buy the whole cart: avoid express shipping",
  ])("express is never chosen from words refusing it: %s", async (intent) => {
    const out = await start("alice", intent);
    expect(from(out).shipping_method, text(out)).not.toBe("express");
  });

  // Medium: one item of an order not yet shipped reaches the approval as the whole order cancelled.
  it.each([
    "Cancel the lamp, the mug stays",
    "Cancel only the lamp, still send the mug",
    "Cancel the lamp but let me have the mug",
    "Cancel the lamp; the mug I still want",
    "Cancel the lamps but the mugs should still ship",
  ])("a request for one item never reaches approval as the whole order: %s", async (intent) => {
    const out = await start("alice", intent);
    expect(sc(out).status, text(out)).not.toBe("awaiting_approval");
  });

  // Medium: a whole-order cancel whose reason names an item is refused as "one item".
  it.each([
    "Cancel the lamp order, I no longer need the lamp",
    "Cancel the lamp order: the lamp is too big for my desk",
  ])("a whole-order cancel with the item as its reason reaches approval: %s", async (intent) => {
    const out = await start("alice", intent);
    expect(sc(out).status, text(out)).toBe("awaiting_approval");
  });

  it("'the mug can still come' never says the mug alone was asked to be cancelled", async () => {
    const out = await start("alice", "Cancel the lamp order, the mug can still come");
    expect(text(out)).not.toMatch(/Signpost Mug alone cannot be cancelled/);
  });

  // Medium: the refund is held for approval to the destination the user refused.
  it.each([
    "Return the tee from my tee order and refund to anything but store credit",
    "Return the tee from my exchange order, refund it to my card not store credit",
    "Cancel my lamp order and don't refund it to my card",
  ])("a refund never reaches approval to where the user refused: %s", async (intent) => {
    const out = await start("alice", intent);
    expect(sc(out).status, text(out)).not.toBe("awaiting_approval");
  });

  it("'not to store credit' on a card-paid order is no ask for store credit", async () => {
    const out = await start("alice", "Refund the kettle from my delivered order, not to store credit");
    expect(text(out)).not.toMatch(/not to store credit as the user asked/);
  });

  // Medium (regression of 85624f9): an age word after the colon no longer names the order, and
  // the only eligible order is tracked for "the latest one" (ord_pending, not shipped).
  it("'Track my order: the latest one' never tracks an older order", async () => {
    const out = await start("alice", "Track my order: the latest one");
    expect(String(from(out).order_id ?? ""), text(out)).not.toContain("ord_transit");
  });

  // Low: the verb-and-destination phrase takes over a request whose verb is another.
  it("'Exchange my tee for a size L and put it in the cart' is still the exchange", async () => {
    const out = await start("alice", "Exchange my tee for a size L and put it in the cart");
    expect(sc(out).capability, text(out)).toBe("after_sales");
  });

  it("'Where is my most recent order?' never tracks an older order", async () => {
    const out = await start("alice", "Where is my most recent order?");
    expect(String(from(out).order_id ?? ""), text(out)).not.toContain("ord_transit");
  });
});
