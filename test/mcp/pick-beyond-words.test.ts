import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Issue 23 (played): start_action by words lost a call where the words alone tied or pointed at a
 * capability that could not take what was sent. The record the start names settles a near tie
 * (its refusing matches drop out, only ever in favour of the best match), and the fields sent
 * pick the one match that takes them all, started for the agent to check, never run at once.
 * Seed: ord_pending (kettle, unpaid, to the office), ord_paid (lamp + mug, paid, not shipped),
 * ord_delivered; tkt_1 (priority high). Real MCP client over HTTP, real legacy service.
 */
describe("start_action by words: the record and the fields settle the pick (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const legacy = async (path: string) =>
    (await (
      await fetch(`${w.legacy.url}/v1/${path}`, {
        headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
      })
    ).json()) as Json;
  const addressOf = async (id: string) => {
    const o = await legacy(`orders/${id}`);
    return o.address_id ?? (o.address as Json | undefined)?.id;
  };
  const start = async (key: string, args: Json) =>
    (await w.connect(key)).callTool({ name: "start_action", arguments: args });
  const search = async (query: string, key = w.keys.alice) =>
    (sc(
      await (await w.connect(key)).callTool({
        name: "search_capabilities",
        arguments: { query, limit: 3 },
      }),
    ).results ?? []) as Array<{ capability: string; score: number }>;

  const redirect = "Ship my kettle order home instead";

  it("a near tie whose weaker match the record refuses starts the best, by the rules for running at once", async () => {
    // The words alone tie: a return matches nearly as well as the redirect.
    const [best, second] = await search(redirect);
    expect([best?.capability, second?.capability]).toEqual(["change_delivery_address", "after_sales"]);
    expect((second?.score ?? 0) / (best?.score ?? 1)).toBeGreaterThan(0.5);
    expect(await addressOf("ord_pending")).toBe("addr_alice_office");
    // An unpaid record has nothing to return: the tie is settled, the redirect runs at once.
    const byId = sc(await start(w.keys.alice, { intent: redirect, entity_id: "ord_pending" }));
    expect(byId).toMatchObject({ capability: "change_delivery_address", status: "completed" });
    expect(String(byId.picked_because)).toContain("after_sales cannot be started on ord_pending now");
    expect(await addressOf("ord_pending")).toBe("addr_alice_home");
    // The one id the words quote names the record as well.
    await w.legacy.reset();
    const quoted = await start(w.keys.alice, {
      intent: "Ship my kettle order ord_pending home instead",
    });
    expect(sc(quoted)).toMatchObject({ capability: "change_delivery_address", status: "completed" });
    expect(text(quoted)).toMatch(/^picked_because: after_sales cannot be started on ord_pending now/m);
    expect(await addressOf("ord_pending")).toBe("addr_alice_home");
  });

  it("a record the words describe settles the tie as an id would: the match that can take it runs", async () => {
    // Set N (played): "back to open" tied a status change with a reopen; tkt_3 is pending, so
    // only the status change can take it, and the model had to search and start again.
    const words = "Put the kettle refund ticket back to open.";
    const [best, second] = await search(words, w.keys.sam);
    expect([best?.capability, second?.capability]).toEqual(["set_ticket_status", "reopen_ticket"]);
    expect((await legacy("tickets/tkt_3")).status).toBe("pending");
    const out = sc(await start(w.keys.sam, { intent: words }));
    expect(out).toMatchObject({ capability: "set_ticket_status", status: "completed" });
    expect(String(out.picked_because)).toContain("reopen_ticket cannot be started on tkt_3 now");
    expect((await legacy("tickets/tkt_3")).status).toBe("open");
  });

  it("a described record that refuses the best leaves the tie, saying which match can take it", async () => {
    // The reverse of the kettle ticket: tkt_7 is closed, so only the reopen can take it.
    const out = sc(await start(w.keys.sam, { intent: "Put the invoice copy ticket back to open." }));
    expect(out).toMatchObject({ outcome: "rejected", reason: "ambiguous_intent" });
    expect(String(out.message)).toMatch(/On tkt_7 now: set_ticket_status cannot start, reopen_ticket can$/);
    expect((await legacy("tickets/tkt_7")).status).toBe("closed");
  });

  it("the tie stands where the record takes both, or where it refuses the best: a weaker match is never started", async () => {
    const before = await w.db.action.count();
    // Paid, not shipped: both a redirect and a cancel-and-refund can start there.
    const paid = sc(
      await start(w.keys.alice, {
        intent: "Ship my lamp order home instead",
        entity_id: "ord_paid",
      }),
    );
    expect(paid).toMatchObject({ outcome: "rejected", reason: "ambiguous_intent" });
    // Delivered: the redirect cannot start, a return can; the words meant the redirect more.
    const delivered = sc(await start(w.keys.alice, { intent: redirect, entity_id: "ord_delivered" }));
    expect(delivered).toMatchObject({ outcome: "rejected", reason: "ambiguous_intent" });
    // It says which the record can take now, so the next call (or what the user is told) is right.
    expect(String(delivered.message)).toMatch(
      /On ord_delivered now: change_delivery_address cannot start, after_sales can$/,
    );
    expect(await w.db.action.count()).toBe(before);
  });

  it("fields only a weaker match takes start it for the agent to check: stopped at its missing fields or its approval", async () => {
    const words = "what would the cheapest item cost delivered to my office with standard shipping";
    expect((await search(words))[0]?.capability).toBe("change_delivery_address");
    const patch = {
      items: [{ product_id: "prod_mug", quantity: 1 }],
      shipping_method: "standard",
      address_id: "Office",
    };
    const open = await start(w.keys.alice, { intent: words, patch });
    expect(sc(open)).toMatchObject({ outcome: "input_required", capability: "checkout", status: "open" });
    expect(text(open)).toMatch(
      /^picked_because: it takes every field sent \(items, shipping_method, address_id\); the best match by the words, change_delivery_address, does not take items, shipping_method\. Not run at once/m,
    );
    expect(text(open)).toContain("total $23.00");
    // Every field, and the agent's key: still only the person's approval runs it.
    const full = sc(
      await start(w.keys.alice, {
        intent: words,
        patch: { ...patch, payment_type: "card" },
        idempotency_key: "quote-the-mug-0001",
      }),
    );
    expect(full).toMatchObject({ capability: "checkout", status: "awaiting_approval" });
    expect(await w.db.effect.count({ where: { actionId: String(full.action_id) } })).toBe(0);
  });

  it("a change that needs no approval, picked by its fields, waits at its confirmation; the agent's confirm runs it", async () => {
    const sam = await w.connect(w.keys.sam);
    const priority = async () => (await legacy("tickets/tkt_1")).priority;
    expect(await priority()).toBe("high");
    const out = await sam.callTool({
      name: "start_action",
      arguments: { intent: "comment on tkt_1 that it's urgent", patch: { priority: "urgent" } },
    });
    const s = sc(out);
    expect(s).toMatchObject({ capability: "change_ticket_priority" });
    expect(s.status).not.toBe("completed");
    expect(String(s.picked_because)).toContain(
      "the best match by the words, comment_ticket, does not take priority",
    );
    expect(s.next_actions).toEqual(
      expect.arrayContaining([expect.objectContaining({ tool: "confirm_action" })]),
    );
    expect(await w.db.effect.count({ where: { actionId: String(s.action_id) } })).toBe(0);
    expect(await priority()).toBe("high");
    const done = sc(
      await sam.callTool({
        name: "confirm_action",
        arguments: { action_id: s.action_id, version: s.version, idempotency_key: "urgent-tkt-1-0001" },
      }),
    );
    expect(done).toMatchObject({ outcome: "applied" });
    expect(await priority()).toBe("urgent");
  });

  it("words that forbid the change ('Don't buy it'): the start shows the price and waits; nothing runs", async () => {
    const before = (await legacy("orders")) as Json;
    expect(JSON.stringify(before)).toContain("ord_pending");
    const out = await start(w.keys.alice, {
      intent:
        "What's the cheapest thing in the shop that's in stock, and what would it cost with standard shipping to my office? Don't buy it.",
    });
    const s = sc(out);
    // The price is said before anything is asked; "in the shop" names no way to pay (a word of
    // the declared phrase "shop credit" alone), so the start waits on how to pay.
    expect(s).toMatchObject({ capability: "checkout", outcome: "input_required", missing: ["payment_type"] });
    expect(s.from_words).not.toHaveProperty("payment_type");
    expect(text(out)).toMatch(/subtotal \$18\.00, shipping \$5\.00, total \$23\.00/);
    expect(await w.db.effect.count({ where: { actionId: String(s.action_id) } })).toBe(0);
    expect(await legacy("orders")).toEqual(before);
  });
});
