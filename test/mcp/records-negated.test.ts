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

  it("'Refund my order that hasn't shipped yet': only the orders whose rows do not say shipped, to ask; short", async () => {
    const client = await w.connect(w.keys.alice);
    const result = await client.callTool({
      name: "start_action",
      arguments: { intent: "Refund my order that hasn't shipped yet — I changed my mind." },
    });
    const out = sc(result);
    const body = text(result);
    expect((out.from_words as Json | undefined)?.order_id).toBeUndefined();
    expect((out.validation_errors as Json[])[0]).toMatchObject({
      field: "order_id",
      code: "ambiguous_choice",
    });
    expect(body).toMatch(
      /the user's words \(not shipped\) leave \d orders that can take this \(check each one's state\): ord_paid/,
    );
    expect(body).toMatch(/ask the user which one/);
    const listed = ids((out.options as Json).orders);
    expect(listed).toContain("ord_paid");
    // The shipped one, and those that cannot take a refund, are not offered.
    for (const other of ["ord_transit", "ord_pending", "ord_cancelled", "ord_delivered_old"])
      expect(listed).not.toContain(other);
    expect(body).not.toMatch(/^- `ord_transit`/m);
    // Was ~600 tokens with every order listed.
    expect(encode(body).length).toBeLessThan(450);
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
