import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { grant } from "../gateway/gateway-world";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Next = {
  tool: string;
  args?: Record<string, unknown>;
  description?: string;
  requires_user_approval?: boolean;
};
const nextOf = (out: { next_actions: unknown }) => out.next_actions as Next[];

const RESOLUTION = "The parcel was found at the depot and is on its way.";

/**
 * start_action from the user's words, and start/advance that confirm at once with a key where
 * nobody must approve: fewer calls, the same guarantees (permission per step, one effect per key,
 * a person's approval never skipped). Real MCP client, gateway and legacy service.
 */
describe("actions in fewer calls (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const ticket = async (id: string) =>
    (await (
      await fetch(`${w.legacy.url}/v1/tickets/${id}`, {
        headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
      })
    ).json()) as { status: string; resolution: string | null };

  it("the user's words and a key: the ticket is resolved and verified in one call, and a resent call is the same action", async () => {
    const client = await w.connect(w.keys.sam);
    const args = {
      intent: "Resolve ticket tkt_2: the parcel was found",
      patch: { ticket_id: "tkt_2", resolution: RESOLUTION },
      idempotency_key: "one-call-resolve-1",
    };
    const result = await client.callTool({ name: "start_action", arguments: args });
    const out = sc(result);
    expect(out).toMatchObject({ outcome: "applied", capability: "resolve_ticket", status: "completed" });
    expect(out.next_actions).toEqual([]);
    expect(text(result)).toMatch(/verified at the system of record/);
    expect(await ticket("tkt_2")).toMatchObject({ status: "resolved", resolution: RESOLUTION });

    // The answer was lost and the agent sends the same call again: the first action, replayed.
    const again = sc(await client.callTool({ name: "start_action", arguments: args }));
    expect(again).toMatchObject({ action_id: out.action_id, outcome: "applied", status: "completed" });
    // Resent with other words (ones that alone match several capabilities): the key decides.
    const reworded = sc(
      await client.callTool({ name: "start_action", arguments: { ...args, intent: "the ticket tkt_2" } }),
    );
    expect(reworded).toMatchObject({ action_id: out.action_id, reason: "idempotent_replay" });
    expect(await w.db.action.count({ where: { capability: "resolve_ticket" } })).toBe(1);
    expect(await w.db.effect.count({ where: { actionId: String(out.action_id) } })).toBe(1);

    // Each step is audited as itself: the search, the start, the confirm.
    const rows = await w.db.auditEvent.findMany({
      where: {
        tenantId: "acme",
        operation: { in: ["capability.searched", "action.started", "action.confirmed"] },
      },
      orderBy: { seq: "asc" },
    });
    expect(rows.slice(0, 3).map((r) => r.operation)).toEqual([
      "capability.searched",
      "action.started",
      "action.confirmed",
    ]);
  });

  it("the same key for another request is refused, and runs nothing of the first", async () => {
    const client = await w.connect(w.keys.sam);
    const key = "one-call-reused-1";
    const first = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "resolve_ticket",
          // The user's words name the ticket: the change runs at once (see the address test below).
          intent: "resolve tkt_2",
          patch: { ticket_id: "tkt_2", resolution: RESOLUTION },
          idempotency_key: key,
        },
      }),
    );
    expect(first).toMatchObject({ outcome: "applied", status: "completed" });
    for (const args of [
      { capability: "resolve_ticket", patch: { ticket_id: "tkt_1", resolution: RESOLUTION } },
      { capability: "resolve_ticket", patch: { ticket_id: "tkt_2", resolution: "Another wording" } },
      { capability: "change_ticket_priority", patch: { ticket_id: "tkt_2", priority: "low" } },
    ]) {
      const out = sc(
        await client.callTool({ name: "start_action", arguments: { ...args, idempotency_key: key } }),
      );
      // Named, so the agent can continue the action the key belongs to.
      expect(out).toMatchObject({
        outcome: "conflict",
        reason: "idempotency_key_reused",
        action_id: first.action_id,
      });
    }
    expect((await ticket("tkt_1")).status).not.toBe("resolved");
  });

  it("a key never skips a person's approval: checkout waits at its confirmation, nothing is charged", async () => {
    const client = await w.connect(w.keys.alice);
    const out = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          intent: "Buy two of the Signpost mugs, ship to the office, pay from my balance",
          patch: {
            items: [{ product_id: "prod_mug", quantity: 2 }],
            address_id: "Office",
            shipping_method: "standard",
            payment_type: "balance",
          },
          idempotency_key: "one-call-checkout-1",
        },
      }),
    );
    expect(out).toMatchObject({ outcome: "applied", capability: "checkout", status: "awaiting_approval" });
    expect(await w.db.effect.count({ where: { actionId: String(out.action_id) } })).toBe(0);
    // The person's approval carries it out: on this host (no URL elicitation) no confirm is offered.
    expect(nextOf(out).map((n) => n.tool)).not.toContain("confirm_action");
    expect(String(out.message)).toMatch(
      /approval at the link carries it out and shows them the result: nothing to call now/,
    );

    // Once the person approved (their approval's own run had not happened: see grant), a key on
    // advance confirms too; the tool list says the key is optional and what it adds.
    const ctx = await w.gw.getContext(w.agent.alice, { action_id: String(out.action_id) });
    await grant(w, String(out.action_id));
    const done = sc(
      await client.callTool({
        name: "advance_action",
        arguments: {
          action_id: out.action_id,
          version: ctx.version,
          patch: {},
          idempotency_key: "one-call-checkout-approved",
        },
      }),
    );
    expect(done).toMatchObject({ outcome: "applied", status: "completed" });
    const { tools } = await client.listTools();
    for (const name of ["start_action", "advance_action"]) {
      const properties = (tools.find((t) => t.name === name)?.inputSchema.properties ?? {}) as Record<
        string,
        { description?: string }
      >;
      const key = properties.idempotency_key;
      // Optional: the change runs now without it too (issue 23); it says what it adds.
      expect(key?.description).toMatch(/^Optional: a resend returns the first outcome/);
    }
  });

  it("advance with a key runs a change nobody approves at once on the record the user's words named; the agent's own pick among several is asked about first", async () => {
    const client = await w.connect(w.keys.alice);
    const order = async (id: string) =>
      (await (
        await fetch(`${w.legacy.url}/v1/orders/${id}`, {
          headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
        })
      ).json()) as { address: { label: string } };
    const started = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "change_delivery_address", patch: { address_id: "Home" } },
      }),
    );
    expect(started).toMatchObject({ outcome: "input_required", missing: ["order_id"] });
    // Two of Alice's orders can still change address; the agent picked one by its id.
    const picked = sc(
      await client.callTool({
        name: "advance_action",
        arguments: {
          action_id: started.action_id,
          version: started.version,
          patch: { order_id: "ord_pending" },
          idempotency_key: "one-call-address-1",
        },
      }),
    );
    expect(picked).toMatchObject({ status: "open", ask_user: { field: "order_id" } });
    // Said as what happened: the agent sent it, the user's words did not name it.
    expect((picked.ask_user as { message: string }).message).toMatch(
      /^ord_pending was sent, but the user's words do not name it and \d+ other records would take this change too: ask the user whether they mean ord_pending; on their word, confirm_action runs it/,
    );
    expect((await order("ord_pending")).address.label).toBe("Office");

    // The user's words named the order at the start: the last field and a key run it at once.
    const named = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "change_delivery_address",
          intent: "change the address of ord_pending",
          patch: {},
        },
      }),
    );
    expect(named).toMatchObject({ missing: ["address_id"], from_words: { order_id: "ord_pending" } });
    const done = sc(
      await client.callTool({
        name: "advance_action",
        arguments: {
          action_id: named.action_id,
          version: named.version,
          patch: { address_id: "Home" },
          idempotency_key: "one-call-address-2",
        },
      }),
    );
    expect(done).toMatchObject({ outcome: "applied", status: "completed", next_actions: [] });
    expect((await order("ord_pending")).address.label).toBe("Home");
  });

  it("words that fit several capabilities about as well start nothing and offer the matches", async () => {
    const client = await w.connect(w.keys.sam);
    const before = await w.db.action.count();
    // Assign, resolve and reopen all fit "the ticket tkt_3" about as well.
    const result = await client.callTool({ name: "start_action", arguments: { intent: "the ticket tkt_3" } });
    const out = sc(result);
    expect(out).toMatchObject({ outcome: "rejected", reason: "ambiguous_intent" });
    expect(out.next_actions.length).toBeGreaterThan(1);
    expect(
      nextOf(out).every((n) => n.tool === "start_action" && typeof n.args?.capability === "string"),
    ).toBe(true);
    expect(await w.db.action.count()).toBe(before);
  });

  it("words that open with the verb the best match is named for settle a near tie: 'Resolve ticket tkt_2 …' starts resolve_ticket, not the matches", async () => {
    const client = await w.connect(w.keys.sam);
    const out = sc(
      await client.callTool({
        name: "start_action",
        arguments: { intent: "Resolve ticket tkt_2 — the customer confirmed the fix works." },
      }),
    );
    expect(out.reason).toBeUndefined();
    const action = await w.db.action.findUniqueOrThrow({ where: { id: String(out.action_id) } });
    expect(action.capability).toBe("resolve_ticket");
    expect(out.other_matches).toContain("reopen_ticket");
  });

  it("words a capability says it is not for never start it: cancelling a paid order opens the after-sales request, not a checkout", async () => {
    const client = await w.connect(w.keys.alice);
    const out = sc(
      await client.callTool({
        name: "start_action",
        arguments: { intent: "Cancel the order I placed today" },
      }),
    );
    // Started (it asks which order and which path next), as the after-sales request.
    expect(typeof out.action_id).toBe("string");
    const action = await w.db.action.findUniqueOrThrow({ where: { id: String(out.action_id) } });
    expect(action.capability).toBe("after_sales");
    expect(out.other_matches ?? []).not.toContain("checkout");
  });

  it("a state word describing the record asks nothing: 'exchange my delivered tee' opens the after-sales request, not an address change", async () => {
    const client = await w.connect(w.keys.alice);
    const out = sc(
      await client.callTool({
        name: "start_action",
        arguments: { intent: "Exchange my delivered tee for size L" },
      }),
    );
    expect(typeof out.action_id).toBe("string");
    const action = await w.db.action.findUniqueOrThrow({ where: { id: String(out.action_id) } });
    expect(action.capability).toBe("after_sales");
    expect(out.other_matches ?? []).not.toContain("change_delivery_address");
  });

  it("fields no matching capability takes: a typed refusal naming them, nothing started", async () => {
    const client = await w.connect(w.keys.alice);
    const before = await w.db.action.count();
    const out = sc(
      await client.callTool({
        name: "start_action",
        arguments: { intent: "refund my order", patch: { colour_of_the_sky: "blue" } },
      }),
    );
    expect(out).toMatchObject({ outcome: "rejected", reason: "no_capability_takes_fields" });
    expect(out.message).toContain("colour_of_the_sky");
    expect(await w.db.action.count()).toBe(before);
  });

  it("a structured field sent wrong: the text shows its shape beside the error", async () => {
    const client = await w.connect(w.keys.alice);
    const result = await client.callTool({
      name: "start_action",
      arguments: { capability: "checkout", patch: { items: "two mugs" } },
    });
    expect(sc(result).field_shapes).toEqual({ items: "[{product_id, quantity}]" });
    expect(text(result)).toMatch(/^shapes:\n- items: \[\{product_id, quantity\}\]$/m);
  });

  it("neither capability nor intent: invalid_arguments", async () => {
    const client = await w.connect(w.keys.alice);
    const out = sc(await client.callTool({ name: "start_action", arguments: {} }));
    expect(out).toMatchObject({ outcome: "rejected", reason: "invalid_arguments" });
  });

  it("capability and intent together: the capability decides, the words fill the fields with choices", async () => {
    const client = await w.connect(w.keys.alice);
    const result = await client.callTool({
      name: "start_action",
      arguments: {
        // Words that alone would match another capability best: the capability named decides.
        capability: "checkout",
        intent: "two mugs, ship to the office by express and pay from my balance",
        patch: { items: [{ product_id: "prod_mug", quantity: 2 }] },
      },
    });
    const out = sc(result);
    expect(out).toMatchObject({ capability: "checkout", status: "awaiting_approval" });
    expect(out.from_words).toEqual({
      address_id: "addr_alice_office",
      shipping_method: "express",
      payment_type: "balance",
    });
    expect(text(result)).toMatch(
      /taken from the words: address_id = addr_alice_office, shipping_method = express, payment_type = balance/,
    );
  });

  it("labels in a patch are read through the node's own choices; an ambiguous one lists the candidates", async () => {
    const client = await w.connect(w.keys.alice);
    const out = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "checkout",
          patch: {
            items: [{ product_id: "prod_mug", quantity: 1 }],
            address_id: "home",
            shipping_method: "standard",
            payment_type: "Store credit",
          },
        },
      }),
    );
    expect(out).toMatchObject({ status: "awaiting_approval" });
    expect(out.from_words).toEqual({ address_id: "addr_alice_home", payment_type: "balance" });
    // "Logo Tee" names every tee the exchange offers: the answer lists them, it does not pick one.
    const exchange = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "after_sales",
          entity_id: "ord_exchange",
          patch: {
            kind: "exchange",
            item_id: "ord_exchange_item_1",
            reason: "too small",
            replacement_product_id: "Logo Tee",
          },
        },
      }),
    );
    const errors = exchange.validation_errors as Array<{ field: string; code: string; message: string }>;
    expect(errors).toContainEqual(
      expect.objectContaining({ field: "replacement_product_id", code: "ambiguous_choice" }),
    );
    expect(errors.find((e) => e.code === "ambiguous_choice")?.message).toMatch(
      /prod_tee_l \(Logo Tee \(L\)\)/,
    );
    // The size alone names one.
    const sized = sc(
      await client.callTool({
        name: "advance_action",
        arguments: {
          action_id: exchange.action_id,
          version: exchange.version,
          patch: { replacement_product_id: "Logo Tee L" },
        },
      }),
    );
    expect(sized).toMatchObject({ status: "awaiting_approval" });
    expect(sized.from_words).toEqual({ replacement_product_id: "prod_tee_l" });
  });
});
