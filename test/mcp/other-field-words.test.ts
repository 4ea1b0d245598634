import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set AU (played): words that fill another field, or say what happened to the record, were read
 * as a name of the record no record says, and a start that one record fitted asked "which one":
 * "Pay my unpaid order from my store credit" (`"store" fits no order`, a word the connector
 * declares for the balance) and "Return the kettle from my delivered kettle order — it leaks"
 * (`"leak" fits no order`, the clause that says what is wrong). Seed: ord_pending is Alice's one
 * unpaid order, ord_delivered her one delivered kettle order.
 */
describe("words of another field or of what happened name no record (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const start = async (intent: string) =>
    (await w.connect(w.keys.alice)).callTool({ name: "start_action", arguments: { intent } });

  it("a declared word of the payment type is no order's name: the one unpaid order goes to approval", async () => {
    const out = await start("Pay my unpaid order from my store credit.");
    expect(sc(out)).toMatchObject({ capability: "pay_order", status: "awaiting_approval" });
    expect(text(out)).toMatch(/order_id = ord_pending/);
    expect(text(out)).toMatch(/payment_type = balance/);
    expect(text(out)).not.toMatch(/fits no order/);
  });

  it("a clause a pronoun opens after the order says what happened, no name: the one order is taken", async () => {
    const out = await start("Return the kettle from my delivered kettle order — it leaks.");
    const t = text(out);
    expect(t).toMatch(/order_id = ord_delivered/);
    expect(t).not.toMatch(/fits no order|ask the user which one/);
    // The defect claim asks for evidence: the field says what goes in it, so the agent asks.
    expect(t).toMatch(/missing: evidence/);
    expect(t).toMatch(/evidence: \[string\]: Photo URLs or descriptions/);
  });

  const samStart = async (intent: string) =>
    (await w.connect(w.keys.sam)).callTool({ name: "start_action", arguments: { intent } });
  const legacy = (path: string, init: RequestInit = {}) =>
    fetch(`${w.legacy.url}/v1/${path}`, {
      ...init,
      headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}`, "content-type": "application/json" },
    }).then((r) => r.json() as Promise<Record<string, unknown>>);

  // Review of the first version: a pronoun clause that points at the record names it; its word no
  // record says is asked about, never dropped while a change nobody approves runs on another.
  it.each([
    [
      "sam",
      "Make the ticket, it's Dana's pending billing one, urgent",
      "tickets/tkt_3",
      "priority",
      "normal",
    ],
    ["sam", "Close the ticket, it's Dana's resolved shipping one", "tickets/tkt_6", "status", "resolved"],
    [
      "alice",
      "Change the delivery address on my order — it's my sister's pending one — to home",
      "orders/ord_pending",
      "address",
      undefined,
    ],
  ])("%s: %s asks, changes nothing", async (who, intent, path, field, before) => {
    const prior = (await legacy(path))[field];
    if (before) expect(prior).toBe(before);
    const out = who === "sam" ? await samStart(intent) : await start(intent);
    expect(sc(out).status).not.toBe("completed");
    expect((await legacy(path))[field]).toEqual(prior);
  });

  it("a declared value word a ticket says still tells tickets apart", async () => {
    await legacy("tickets/tkt_6", {
      method: "PATCH",
      body: JSON.stringify({ subject: "Paused headphones" }),
    });
    const out = await samStart("Set the headphones ticket, the one that's paused, to pending");
    expect(sc(out).status).not.toBe("completed");
    expect((await legacy("tickets/tkt_2")).status).toBe("open");
  });

  it("a contracted subject's clause says what is wrong, no other ask (set AX)", async () => {
    const out = await start("Return both mugs from my delivered kettle order — they're the wrong colour.");
    expect(sc(out)).toMatchObject({ capability: "after_sales", status: "awaiting_approval" });
    expect(text(out)).not.toMatch(/also asked/);
  });

  it("a word no order says, in the clause that names it, is still asked about", async () => {
    const out = await start("Return the teapot from my delivered order.");
    expect(text(out)).toMatch(/"teapot" fits no order/);
  });
});
