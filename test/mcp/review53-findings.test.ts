import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, legacyRecord, type McpWorld, sc, text } from "./mcp-world";

/**
 * Review 53: what the first reading of words after a colon, of a verb and where it puts its
 * object, of a question after a record, and of words relating a search's others got wrong, found
 * through the real MCP client. A statement after a colon is why, never a value; a directive is
 * more of the ask.
 */
describe("review 53 findings (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const orderAddress = async (id: string) =>
    (await legacyRecord<{ address: { id: string } }>(w, `orders/${id}`)).address.id;
  const start = async (key: string, intent: string) =>
    (await w.connect(key)).callTool({ name: "start_action", arguments: { intent } });

  it.each([
    "Change the delivery address of my kettle order: nobody is home to sign for it",
    "Change where the lamp order ships: my home address has a typo, so don't use it",
    "Change the delivery address of the lamp order: last time it went to my home by mistake",
  ])("a reason after the colon never picks the address and runs at once: %s", async (intent) => {
    const out = await start(w.keys.alice, intent);
    expect(sc(out).status, text(out)).not.toBe("completed");
    // The order the words name, never one an age word of the reason names ("last time").
    if (/lamp/.test(intent))
      expect((sc(out).from_words as Record<string, string>)?.order_id).toBe("ord_paid");
    expect(await orderAddress("ord_pending")).toBe("addr_alice_office");
    expect(await orderAddress("ord_paid")).toBe("addr_alice_office");
  });

  it("'put everything in my cart into an order and pay' is a checkout, never paying the kettle order", async () => {
    const out = await start(w.keys.alice, "Put everything in my cart into an order and pay with my card");
    expect(sc(out).capability, text(out)).toBe("checkout");
  });

  it("words after a checkout's colon that reject express do not choose it", async () => {
    const out = await start(w.keys.alice, "Checkout my cart: last time express shipping was too expensive");
    expect((sc(out).from_words as Record<string, unknown>)?.shipping_method).toBeUndefined();
  });

  it("'add a mug to my cart: I gave 3 away' adds one mug", async () => {
    const out = await start(w.keys.alice, "Add a mug to my cart: I gave 3 away");
    expect((sc(out).from_words as Record<string, unknown>)?.quantity, text(out)).not.toBe("5");
  });

  it("a topic word before 'from/for/of' + a filter keeps 'no ticket matches'", async () => {
    const sam = await w.connect(w.keys.sam);
    for (const query of ["open tickets for refunds by Sid", "tickets from fraudsters in shipping"]) {
      const page = text(await sam.callTool({ name: "search", arguments: { query } }));
      expect(page, query).toMatch(/No ticket matches/);
    }
  });

  it("a question that is the ask keeps its description: 'Can they refund the kettle order that was delivered?'", async () => {
    const out = await start(w.keys.alice, "Can they refund the kettle order that was delivered?");
    expect((sc(out).from_words as Record<string, unknown>)?.order_id, text(out)).toBe("ord_delivered");
  });

  it.each([
    ["Set tkt_9 to pending: the customer asked us to keep it open until Friday", "pending"],
    ["Assign tkt_1 to Bella: Sid and Sara are busy", "tm_bella"],
  ])("a statement after the colon never unsets what the ask said: %s", async (intent, value) => {
    const out = await start(w.keys.sam, intent);
    expect(JSON.stringify(sc(out).from_words), text(out)).toContain(value);
  });

  it.each([
    "Lower the priority of tkt_1: the customer flagged it as urgent",
    "Raise the priority of tkt_2: it was wrongly set to low",
  ])("a priority said in a statement after the colon is never set: %s", async (intent) => {
    const out = await start(w.keys.sam, intent);
    const from = (sc(out).from_words ?? {}) as Record<string, unknown>;
    expect(from.priority, text(out)).toBeUndefined();
  });

  it("'Cancel the order that is not paid, is it the kettle one?' still names the kettle order", async () => {
    const out = await start(w.keys.alice, "Cancel the order that is not paid, is it the kettle one?");
    expect(text(out)).toContain("ord_pending");
  });
});
