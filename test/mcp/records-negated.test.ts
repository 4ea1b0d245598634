import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

const ids = (rows: unknown) => ((rows ?? []) as Json[]).map((r) => r.id);

/**
 * Issue 23, played on the demo: "Refund my order that hasn't shipped yet" listed all eight of
 * Alice's orders (~600 tokens) because the words said only what the order is not. A negation now
 * narrows to the orders whose rows do not say the word; where it alone leaves one, a change a
 * person approves starts on it with the negation in its why, and a change nobody approves asks.
 * A record the words deny is never the one named. Real MCP client over HTTP, gateway and legacy.
 */
describe("what the user's words say a record is not (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const legacy = async (path: string) =>
    (await (
      await fetch(`${w.legacy.url}${path}`, { headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` } })
    ).json()) as Json;

  it("'Refund my order that hasn't shipped yet': a delivered order shipped, so the one unshipped refundable order goes to the person's approval in one call, saying why", async () => {
    const client = await w.connect(w.keys.alice);
    const result = await client.callTool({
      name: "start_action",
      arguments: { intent: "Refund my order that hasn't shipped yet — I changed my mind." },
    });
    const out = sc(result);
    const body = text(result);
    expect(out.status).toBe("awaiting_approval");
    expect((out.from_words as Json).order_id).toBe("ord_paid");
    expect(body).toMatch(/order_id = ord_paid \(fits not "shipped"/);
    expect(body).not.toMatch(/ord_exchange|ord_shipdiff|ord_delivered\b/);
    expect(body).not.toMatch(/ask the user which one/);
    expect(out.validation_errors ?? []).toEqual([]);
    // ~400 tokens with the summary to approve: the listing of four orders to ask about is gone.
    expect(encode(body).length).toBeLessThan(450);
  });

  it("a change nobody approves on a negation alone ('deliver my order that hasn't shipped to my home') does not run at once, even with a key", async () => {
    const client = await w.connect(w.keys.alice);
    const before = await legacy("/v1/orders/ord_paid");
    const result = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "change_delivery_address",
        intent: "deliver my order that hasn't shipped to my home",
        idempotency_key: "negated-address-1",
      },
    });
    const out = sc(result);
    const body = text(result);
    expect(out.status).not.toBe("applied");
    expect((out.from_words as Json | undefined)?.order_id).toBeUndefined();
    // Only orders that did not ship are offered to ask about: never a delivered one.
    expect(body).not.toMatch(/ord_exchange|ord_shipdiff|ord_delivered\b|ord_transit/);
    // Every order states whether it shipped: the two that did not fit, with no hedge to check.
    expect(body).toMatch(
      /the user's words \(not shipped\) fit 2 orders that can take this: ord_pending, ord_paid;/,
    );
    expect(body).toMatch(/ask the user which one/);
    expect(await legacy("/v1/orders/ord_paid")).toEqual(before);
  });

  it("a change nobody approves on a negation the words may not mean ('not the one I haven't paid for'): nothing runs, the user is asked", async () => {
    const client = await w.connect(w.keys.alice);
    const before = await legacy("/v1/orders/ord_pending");
    // A review found a pick by what the words deny ran the change on the record they excluded.
    for (const intent of [
      "Change the delivery address of my order (not the one I haven't paid for) to my home.",
      "I never said it was unpaid; change the delivery address of my order to my home.",
      "Change the delivery address of my unpaid order to my home.",
    ]) {
      const out = sc(await client.callTool({ name: "start_action", arguments: { intent } }));
      expect(out.status, intent).not.toBe("completed");
      expect(out.outcome, intent).not.toBe("applied");
    }
    expect(await legacy("/v1/orders/ord_pending")).toEqual(before);
  });

  it("'Refund my order that was never delivered': the one that can take it is started on, with the negation as why (a person approves the refund)", async () => {
    const client = await w.connect(w.keys.alice);
    const result = await client.callTool({
      name: "start_action",
      arguments: { intent: "Refund my order that was never delivered" },
    });
    expect((sc(result).from_words as Json).order_id).toBe("ord_paid");
    expect(text(result)).toMatch(/order_id = ord_paid \(fits not "delivered" \(status paid\)/);
  });

  it("a change nobody approves: the ticket the words deny is never named, and a negation alone runs nothing even with a key", async () => {
    const sam = await w.connect(w.keys.sam);
    const before = await legacy("/v1/tickets?per_page=100");
    const denied = await sam.callTool({
      name: "start_action",
      arguments: {
        intent: "resolve the shipping ticket that isn't about headphones: the parcel arrived",
        idempotency_key: "negated-headphones-1",
      },
    });
    const out = sc(denied);
    expect(out.status).toBe("open");
    expect((out.from_words as Json | undefined)?.ticket_id).toBeUndefined();
    expect(ids((out.options as Json).tickets).sort()).toEqual(["tkt_4", "tkt_9"]);
    expect(text(denied)).toMatch(/\(shipping, not headphone\) fit 2 tickets/);

    // "isn't open" leaves only the pending shipping ticket: offered to ask about, not resolved.
    const one = await sam.callTool({
      name: "start_action",
      arguments: {
        intent: "resolve the shipping ticket that isn't open: the address was changed",
        idempotency_key: "negated-open-1",
      },
    });
    expect(sc(one).status).toBe("open");
    expect((sc(one).from_words as Json | undefined)?.ticket_id).toBeUndefined();
    expect(text(one)).toMatch(
      /\(shipping, not open\) fits 1 ticket that can take this: tkt_4;.* ask the user/,
    );
    expect(await legacy("/v1/tickets?per_page=100")).toEqual(before);
  });
});
