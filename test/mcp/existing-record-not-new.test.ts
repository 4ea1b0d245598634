import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Issue 23 (played): "Pay for my kettle order from my store credit, and use a coupon if one
 * applies." started a new checkout of a kettle (asking for an address) instead of paying Alice's
 * unpaid kettle order: "coupon" (a field only checkout takes) and "kettle" outweighed "pay … my …
 * order". Words naming a record of the user's with a verb done on such records pick that
 * capability; what it cannot take is said as not done, never offered as a second checkout. Seed:
 * ord_pending (kettle, pending_payment); tkt_1 "Charged twice?" (open).
 */
describe("a record of the user's named with its verb: that capability, the rest said (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const call = async (key: string, name: string, args: Json) =>
    (await w.connect(key)).callTool({ name, arguments: args });
  const starts = (out: unknown) =>
    ((sc(out).next_actions ?? []) as Array<{ tool: string; args?: Json }>)
      .filter((n) => n.tool === "start_action")
      .map((n) => n.args?.capability);

  it("pays the unpaid kettle order from store credit; the coupon is said as not done, no checkout offered", async () => {
    const intent = "Pay for my kettle order from my store credit, and use a coupon if one applies.";
    const out = await call(w.keys.alice, "start_action", { intent });
    expect(sc(out), text(out)).toMatchObject({ capability: "pay_order", status: "awaiting_approval" });
    expect(sc(out).from_words).toMatchObject({ order_id: "ord_pending", payment_type: "balance" });
    expect(text(out)).toContain(
      'not done: "use a coupon if one applies" — pay_order takes no coupon_code (only checkout does, when it makes a new order)',
    );
    expect(starts(out)).not.toContain("checkout");
  });

  it("'Pay for my kettle order from my store credit' ranks paying the order first and starts it, nothing said left", async () => {
    const query = "Pay for my kettle order from my store credit";
    const found = await call(w.keys.alice, "search_capabilities", { query });
    expect((sc(found).results as Json[])[0]?.capability, text(found)).toBe("pay_order");
    const out = await call(w.keys.alice, "start_action", { intent: query });
    expect(sc(out), text(out)).toMatchObject({ capability: "pay_order", status: "awaiting_approval" });
    expect(sc(out).from_words).toMatchObject({ order_id: "ord_pending" });
    expect(text(out)).not.toContain("not done");
  });

  it("a coupon named in the payment's own words is said as not done too", async () => {
    const out = await call(w.keys.alice, "start_action", { intent: "pay my kettle order with a coupon" });
    expect(sc(out), text(out)).toMatchObject({ capability: "pay_order" });
    expect(text(out)).toContain('not done: "coupon" — pay_order takes no coupon_code (only checkout does');
  });

  it("a note on a ticket beside a coupon: the note is added, the coupon said as not done, no checkout offered", async () => {
    const intent = "Add an internal note to the charged twice ticket and apply a coupon for the trouble";
    const out = await call(w.keys.sam, "start_action", { intent });
    expect(sc(out), text(out)).toMatchObject({ capability: "comment_ticket" });
    expect(text(out)).toContain(
      'not done: "apply a coupon for the trouble" — comment_ticket takes no coupon_code (only checkout does, when it makes a new order)',
    );
    expect(starts(out)).not.toContain("checkout");
  });

  it("a coupon inside the note's own text is the note's, nothing said as not done", async () => {
    const intent = "comment on the headphones ticket that the coupon code failed at checkout";
    const out = await call(w.keys.sam, "start_action", { intent });
    expect(sc(out), text(out)).toMatchObject({ capability: "comment_ticket" });
    expect(text(out)).not.toContain("not done");
  });

  it("words naming the record ('the coupon not applied ticket') are no field of another capability", async () => {
    // Set AJ: the close ran, then said 'not done: "coupon" — close_ticket takes no coupon_code'.
    const out = await call(w.keys.sam, "start_action", { intent: "Close the coupon not applied ticket." });
    expect(sc(out), text(out)).toMatchObject({ capability: "close_ticket", status: "completed" });
    expect(text(out)).not.toContain("not done");
  });

  it("a relative clause naming the record ('that's waiting for payment') is no field of another capability", async () => {
    // Set AL: the address change ran, then said 'not done: "payment"'.
    const out = await call(w.keys.alice, "start_action", {
      intent: "Send my kettle order that's waiting for payment to my home instead of the office.",
    });
    expect(sc(out), text(out)).toMatchObject({ capability: "change_delivery_address", status: "completed" });
    expect(text(out)).not.toContain("not done");
  });
});
