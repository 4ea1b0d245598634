// stays-whole: one behaviour (words become choices) over one started MCP world.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mugCheckout } from "../helpers/mug-checkout";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * What issue 23's model stumbled on, fixed at the cause: a change that needs nobody's approval
 * runs at once only on the record the user meant; the shop's cart, coupons and exchange summary
 * behave like a shop's. Real MCP client, gateway and legacy service.
 */
describe("records the user meant, and a shop that behaves like one (MCP over HTTP)", () => {
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
  const approve = async (actionId: string) => {
    const ctx = await w.gw.getContext(w.agent.alice, { action_id: actionId });
    await w.gw.decideApproval(w.person.alice, {
      action_id: actionId,
      version: ctx.version as number,
      decision: "approve",
    });
  };

  it("an address change on an order the agent picked among several does not run at once: the answer lists them and says to ask", async () => {
    const client = await w.connect(w.keys.alice);
    const picked = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "change_delivery_address",
        entity_id: "ord_paid",
        patch: { address_id: "Home" },
        idempotency_key: "unnamed-record-1",
      },
    });
    const out = sc(picked);
    expect(out.effect ?? null).toBeNull();
    expect(out.status).toBe("open");
    const ask = out.ask_user as { field: string; candidates: string[] };
    expect(ask.field).toBe("order_id");
    expect(ask.candidates.map((c) => c.split(" ")[0])).toEqual(
      expect.arrayContaining(["ord_paid", "ord_pending"]),
    );
    // Each candidate with what tells it apart, so the user is asked by facts, not by id alone.
    expect(text(picked)).toMatch(
      /^ask the user: .*; on their word, confirm_action runs it; they differ in status\b.*$/m,
    );
    expect(text(picked)).toMatch(/^- `ord_paid` \(Desk Lamp ×1, Signpost Mug ×1\) · status: paid · /m);
    expect(text(picked)).toMatch(/^- `ord_pending` .* · status: pending_payment · /m);
    expect(((await legacy("/v1/orders/ord_paid")).address as Json).label).toBe("Office");

    // The user's words name the order (its kettle): the same change runs at once.
    const named = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "change_delivery_address",
          intent: "please send my kettle order to my home address",
          patch: { address_id: "Home" },
          idempotency_key: "unnamed-record-2",
        },
      }),
    );
    expect(named).toMatchObject({ capability: "change_delivery_address", status: "completed" });
    // Two kettle orders, one that can still change address: that is the one the words name.
    expect(named.verification).toMatchObject({ order_id: "ord_pending" });
    expect(((await legacy("/v1/orders/ord_pending")).address as Json).label).toBe("Home");
  });

  it("an approved action on the only eligible record the words speak of takes it and says so; words naming no kind of record do not", async () => {
    const client = await w.connect(w.keys.alice);
    const result = await client.callTool({
      name: "start_action",
      arguments: { capability: "pay_order", intent: "Pay my order that awaits payment" },
    });
    const out = sc(result);
    expect(out.missing ?? []).not.toContain("order_id");
    expect((out.from_words as Json).order_id).toBe("ord_pending (the only eligible order)");
    expect(text(result)).toContain("the only eligible order");
    // Nothing ran: the person still approves the payment.
    expect(out.status).not.toBe("completed");
    const vague = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "pay_order", intent: "settle it" },
      }),
    );
    expect(vague.missing).toContain("order_id");
  });

  it("words asking for a coupon take the one that applies (shown as taken); several that apply are listed, none taken; words refusing one take none", async () => {
    const client = await w.connect(w.keys.alice);
    const order = (items: Json[]) => ({
      items,
      address_id: "Office",
      shipping_method: "standard",
      payment_type: "balance",
    });
    // Two mugs (36.00): only SAVE5 (20.00 or more) applies.
    const mugs = order([{ product_id: "prod_mug", quantity: 2 }]);
    const asked = await client.callTool({
      name: "start_action",
      arguments: { capability: "checkout", patch: mugs, intent: "buy them and use a coupon if one applies" },
    });
    expect((sc(asked).from_words as Json).coupon_code).toBe("SAVE5");
    expect(text(asked)).toContain("coupon_code = SAVE5");

    // Two headphones (over 300.00): SAVE5 and SAVE30 both apply. Both listed, neither taken.
    const several = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "checkout",
        patch: order([{ product_id: "prod_headphones", quantity: 2 }]),
        intent: "buy them and use a coupon if one applies",
      },
    });
    const out = sc(several);
    expect((out.from_words as Json | undefined)?.coupon_code).toBeUndefined();
    expect((out.validation_errors as Json[])[0]).toMatchObject({
      field: "coupon_code",
      code: "ambiguous_choice",
    });
    const message = String((out.validation_errors as Json[])[0]?.message);
    expect(message).toContain("SAVE5");
    expect(message).toContain("SAVE30");
    expect(message).not.toContain("BIG100");
    expect(out.status).not.toBe("awaiting_approval");

    const refused = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "checkout", patch: mugs, intent: "buy them, no coupon please" },
      }),
    );
    // None, said as the user's word (review 55c: the screen then says no coupon went unused).
    expect((refused.from_words as Json | undefined)?.coupon_code).toBe("none (the user said none)");
  });

  it("a ticket named by its age is that one (the oldest open shipping ticket) and a priority change on it runs in one call; words no ticket fits are said so, nothing changes", async () => {
    const client = await w.connect(w.keys.sam);
    const tickets = ((await legacy("/v1/tickets?per_page=100")).data as Json[]).filter(
      (t) => t.status === "open" && t.team_id === "shipping",
    );
    const oldest = [...tickets].sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)))[0];
    expect(tickets.length).toBeGreaterThan(1);
    const bumped = await client.callTool({
      name: "start_action",
      arguments: { intent: "bump the oldest open shipping ticket to urgent", idempotency_key: "age-bump-1" },
    });
    expect(sc(bumped)).toMatchObject({ capability: "change_ticket_priority", status: "completed" });
    expect((await legacy(`/v1/tickets/${oldest?.id}`)).priority).toBe("urgent");

    const before = await legacy("/v1/tickets?per_page=100");
    const none = await client.callTool({
      name: "start_action",
      arguments: { intent: "resolve the oldest login ticket", idempotency_key: "age-none-1" },
    });
    const out = sc(none);
    expect(out.status).toBe("open");
    expect((out.validation_errors as Json[])[0]).toMatchObject({ field: "ticket_id", code: "no_match" });
    expect(text(none)).toContain('fits "oldest login ticket"');
    expect(await legacy("/v1/tickets?per_page=100")).toEqual(before);
    // Ticket lists give the time of day and how long ago (the age questions need it).
    expect(text(none)).toMatch(/created: \d{4}-\d\d-\d\d \d\d:\d\d UTC, (just now|\d+ (min|h|days) ago)/);
  });

  it("the teammates offered say their order and how many inactive ones are left out; an inactive teammate named is refused with why", async () => {
    const client = await w.connect(w.keys.sam);
    const started = await client.callTool({
      name: "start_action",
      arguments: { capability: "assign_ticket", entity_id: "tkt_9" },
    });
    const body = text(started);
    expect(body).toMatch(
      /^options\.teammates \(for assignee_id; the ticket's team first; inactive \(Bruno Billing\) left out; you \(sam@acme\.test\) are no teammate, so cannot be assigned\):$/m,
    );
    expect(body).not.toContain("tm_bruno");
    const named = sc(
      await client.callTool({
        name: "advance_action",
        arguments: { action_id: sc(started).action_id, version: 1, patch: { assignee_id: "tm_bruno" } },
      }),
    );
    expect((named.validation_errors as Json[])[0]).toMatchObject({ code: "teammate_inactive" });
  });

  it("a question one record answers is answered in one call (the only parcel on its way); a record taken from the words is not re-listed with all the others", async () => {
    const client = await w.connect(w.keys.alice);
    const parcel = await client.callTool({
      name: "start_action",
      arguments: { intent: "Where is my parcel?" },
    });
    expect(sc(parcel)).toMatchObject({ capability: "track_shipment", status: "completed" });
    expect((sc(parcel).result as Json).order_id).toBe("ord_transit");
    expect(text(parcel)).toContain("order_id = ord_transit");

    const exchange = await client.callTool({
      name: "start_action",
      arguments: { intent: "Exchange the tee from my delivered order for size L" },
    });
    expect((sc(exchange).from_words as Json).order_id).toBe("ord_exchange");
    expect((sc(exchange).options as Json).orders).toBeUndefined();
    expect(text(exchange)).not.toContain("ord_delivered_old");

    // Described by what it is: the one unassigned urgent ticket.
    const sam = await w.connect(w.keys.sam);
    const assign = sc(
      await sam.callTool({
        name: "start_action",
        arguments: { intent: "Assign the unassigned urgent ticket to an active teammate of its team" },
      }),
    );
    expect((assign.from_words as Json).ticket_id).toBe("tkt_9");
  });

  it("a search whose words name one listing clearly answers with that listing (one call); words naming no listing clearly get the link list", async () => {
    const client = await w.connect(w.keys.alice);
    const orders = await client.callTool({ name: "search", arguments: { query: "list my orders" } });
    expect(text(orders)).toMatch(/^## \[Orders\]\(shop:\/\/orders\) \(opened here\)$/m);
    expect(text(orders)).toContain("ord_delivered_old");
    expect((sc(orders).links as unknown as string[])[0]).toBe("shop://orders");
    const coupon = text(
      await client.callTool({
        name: "search",
        arguments: { query: "is there a coupon I can use for my cart" },
      }),
    );
    expect(coupon).toContain("## Coupons that apply to this cart");
    const refund = text(await client.callTool({ name: "search", arguments: { query: "refund" } }));
    expect(refund).not.toContain("(opened here)");
    expect(refund).toContain("## Pages");
  });

  it('"list my orders" starts nothing: no capability does what it asks, and the answer says the pages do', async () => {
    const client = await w.connect(w.keys.alice);
    for (const intent of ["List my orders.", "show me my orders"]) {
      const out = await client.callTool({ name: "start_action", arguments: { intent } });
      expect(sc(out).outcome).toBe("rejected");
      expect(sc(out).reason).toBe("no_capability_fits");
      expect(sc(out).action_id).toBeUndefined();
      // The reading path as one call to copy, and no capability offered to start instead.
      expect(text(out)).toContain(`To read or list records: search ${JSON.stringify({ query: intent })}`);
      expect(text(out)).not.toContain("start_action");
      expect(sc(out).next_actions).toEqual([]);
    }
    const found = await client.callTool({
      name: "search_capabilities",
      arguments: { query: "list my orders" },
    });
    expect(text(found)).toMatch(/No capability does what these words ask/);
    expect(text(found)).toContain('search {"query":"list my orders"}');
    expect(text(found)).not.toContain("start_action");
    // The words as the answer said: one call opens the listing.
    const listed = text(await client.callTool({ name: "search", arguments: { query: "list my orders" } }));
    expect(listed).toMatch(/\(opened here\)/);
    // A key an admin gave no browse face is pointed at what it has.
    const agent = await w.db.agent.findFirstOrThrow({
      where: { userId: w.agent.alice.userId, revokedAt: null },
    });
    try {
      await w.db.agent.update({ where: { id: agent.id }, data: { faces: "actions" } });
      const actionsOnly = await w.connect(w.keys.alice);
      const viaActions = text(
        await actionsOnly.callTool({ name: "start_action", arguments: { intent: "List my orders." } }),
      );
      expect(viaActions).toContain("get_context");
      expect(viaActions).not.toContain("search {");
    } finally {
      await w.db.agent.update({ where: { id: agent.id }, data: { faces: null } });
    }
    // Words that ask for something a capability does still start it.
    const buy = await client.callTool({ name: "start_action", arguments: { intent: "order two mugs" } });
    expect(sc(buy).capability).toBe("checkout");
  });

  it("the detail after the ask's colon fills the one free-text field: resolve with a key runs in one call", async () => {
    await w.legacy.reset();
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        intent: "Resolve ticket tkt_2: customer confirmed fix works",
        idempotency_key: "resolve-tkt-2-colon",
      },
    });
    expect(sc(out).outcome).toBe("applied");
    expect(text(out)).toMatch(/^done with: .*Resolution: customer confirmed fix works/m);
  });

  it('"call off the order" is a cancel (after-sales), never a checkout', async () => {
    const client = await w.connect(w.keys.alice);
    const out = sc(
      await client.callTool({
        name: "start_action",
        arguments: { intent: "call off the order I placed today" },
      }),
    );
    expect(out.capability).toBe("after_sales");
  });

  it('"the order I placed today" is the one created within the last 24 hours; two such are asked about, never picked', async () => {
    const client = await w.connect(w.keys.alice);
    const placeOne = async (key: string) => {
      const out = sc(
        await client.callTool({
          name: "start_action",
          arguments: { ...mugCheckout(), idempotency_key: key },
        }),
      );
      await approve(String(out.action_id));
      const done = await w.gw.getContext(w.agent.alice, { action_id: String(out.action_id) });
      return String(
        (done.effect as Json | undefined)?.order_id ?? JSON.stringify(done).match(/ord_[0-9a-f]{12}/)?.[0],
      );
    };
    // No order of Alice's is from today yet (the newest seeded one is a day old): nothing picked.
    const none = sc(
      await client.callTool({
        name: "start_action",
        arguments: { intent: "Cancel the order I placed today" },
      }),
    );
    expect((none.from_words as Json | undefined)?.order_id).toBeUndefined();
    const first = await placeOne("today-order-1");
    expect(first).toMatch(/^ord_[0-9a-f]{12}$/);
    const one = await client.callTool({
      name: "start_action",
      arguments: { intent: "Cancel the order I placed today" },
    });
    expect((sc(one).from_words as Json).order_id).toBe(first);
    // Why it is that one: its time, with how long ago it was.
    expect(text(one)).toMatch(
      new RegExp(
        `^taken from the words: order_id = ${first} \\(fits created \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC, (just now|\\d+ min ago)`,
        "m",
      ),
    );
    expect(sc(one).status).toBe("awaiting_approval");
    // A second order today: the words fit both, the user is asked.
    const second = await placeOne("today-order-2");
    const two = sc(
      await client.callTool({
        name: "start_action",
        arguments: { intent: "Cancel the order I placed today" },
      }),
    );
    expect((two.from_words as Json | undefined)?.order_id).toBeUndefined();
    expect(String(two.message)).toContain(first);
    expect(String(two.message)).toContain(second);
    expect(String(two.message)).toMatch(/ask the user which one/);
  });

  it("the cart page answers whether a coupon applies; the checkout preview says where the items it needs are offered", async () => {
    const client = await w.connect(w.keys.alice);
    const cart = text(await client.callTool({ name: "navigate", arguments: { uri: "shop://cart" } }));
    expect(cart).toMatch(
      /## Coupons that apply to this cart\n\n\| code \| label \| discount \|\n.*\n\| SAVE5 \|/,
    );
    // 61.00 in the cart: the 300.00 and 1000.00 coupons do not apply, each said with what it needs.
    expect(cart).not.toMatch(/^\| SAVE30 \|/m);
    expect(cart).toContain("Not yet: SAVE30 (needs $239.00 more), BIG100 (needs $939.00 more).");
    const preview = text(await client.callTool({ name: "navigate", arguments: { uri: "shop://checkout" } }));
    expect(preview).toContain("needs items \\(from cart: 2 offered\\)");
    // Each list's heading says the field it fills, not a section of its own.
    expect(preview).toContain("### cart (for items\\[\\].product_id)");
    expect(preview).not.toContain("### field of");
  });

  it("checkout offers the cart's coupons from the first step; paying for part of the cart leaves the cart as it is", async () => {
    const client = await w.connect(w.keys.alice);
    const first = await client.callTool({ name: "start_action", arguments: { capability: "checkout" } });
    expect(((sc(first).options as Json).available_coupons as Json[]).map((c) => c.code)).toContain("SAVE5");
    // Listed once, as the user's choice (not again as a plain option list).
    expect(text(first)).toMatch(/^- coupon_code — optional: ask with the missing fields; .*`SAVE5` \$5\.00/m);
    expect(text(first)).not.toContain("options.available_coupons");

    const cart = (await legacy("/v1/customers/cus_alice/cart")).items as Array<{ product_id: string }>;
    expect(cart.map((i) => i.product_id).sort()).toEqual(["prod_mug", "prod_tee"]);
    const started = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "checkout",
          patch: {
            items: [{ product_id: "prod_mug", quantity: 2 }],
            address_id: "Office",
            shipping_method: "standard",
            payment_type: "balance",
          },
        },
      }),
    );
    await approve(String(started.action_id));
    const done = sc(
      await client.callTool({
        name: "confirm_action",
        arguments: { action_id: started.action_id, idempotency_key: "cart-checkout-1" },
      }),
    );
    expect(done.effect).toMatchObject({ status: "applied" });
    // Two mugs are not the cart (it holds a tee too): only a whole cart checked out leaves it
    // (cart-checked-out.test.ts), so a "buy two mugs" never changes a cart nobody named.
    const after = (await legacy("/v1/customers/cus_alice/cart")).items as Array<{ product_id: string }>;
    expect(after.map((i) => i.product_id).sort()).toEqual(["prod_mug", "prod_tee"]);
  });

  it("the exchange the person approves names the replacement by its name and size; a refused confirm does not repeat the summary", async () => {
    const client = await w.connect(w.keys.alice);
    const result = await client.callTool({
      name: "start_action",
      arguments: {
        intent: "Exchange the tee I received for size L",
        patch: { kind: "exchange", reason: "too small" },
      },
    });
    const out = sc(result);
    expect(out).toMatchObject({ capability: "after_sales", status: "awaiting_approval" });
    expect(out.from_words).toMatchObject({ order_id: "ord_exchange", replacement_product_id: "prod_tee_l" });
    expect(text(result)).toMatch(/^summary: Exchange Logo Tee \(M\) for Logo Tee \(L\)/m);
    expect(text(result)).toMatch(/Replacement: Logo Tee \(L\)/);

    const refused = await client.callTool({
      name: "confirm_action",
      arguments: { action_id: out.action_id, idempotency_key: "refused-confirm-1" },
    });
    expect(sc(refused)).toMatchObject({ outcome: "rejected", reason: "approval_pending" });
    // The summary's first line names it; its rows are not sent again.
    expect(text(refused)).toMatch(/^summary: Exchange Logo Tee \(M\) for Logo Tee \(L\)$/m);
    expect(text(refused)).not.toMatch(/Replacement: /);
  });

  it("a checkout by words: the cart (or products named with sizes and counts), the address label and the payment method, all in one start", async () => {
    const client = await w.connect(w.keys.alice);
    const cart = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "checkout",
        intent: "buy the items in my cart, ship to my office with standard shipping and pay with my balance",
      },
    });
    expect(sc(cart)).toMatchObject({ status: "awaiting_approval" });
    expect(sc(cart).from_words).toMatchObject({
      address_id: "addr_alice_office",
      shipping_method: "standard",
      payment_type: "balance",
    });
    // What the person approves is what the cart holds, quantities included.
    expect((sc(cart).summary as { items: Json[] }).items).toEqual([
      expect.objectContaining({ product_id: "prod_mug", quantity: 2 }),
      expect.objectContaining({ product_id: "prod_tee", quantity: 1 }),
    ]);

    // Products named by name and size (one not in the cart), a count, a coupon by its code.
    const named = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          intent: "buy 2 Logo Tee L and a mug, ship to office same day, pay by card, use coupon SAVE5",
        },
      }),
    );
    expect(named).toMatchObject({ capability: "checkout", status: "awaiting_approval" });
    expect((named.summary as { items: Json[] }).items).toEqual([
      expect.objectContaining({ product_id: "prod_tee_l", quantity: 2 }),
      expect.objectContaining({ product_id: "prod_mug", quantity: 1 }),
    ]);
    expect((named.summary as { sum: { terms: Json[] } }).sum.terms).toContainEqual({
      label: "coupon SAVE5",
      amount: -500,
    });
    expect(named.summary).toMatchObject({
      payment_method: { type: "card" },
      shipping_method: { value: "same_day" },
    });

    // Words that fit several products are never a guess: the candidates, to ask the user.
    const tee = await client.callTool({
      name: "start_action",
      arguments: { capability: "checkout", intent: "buy a tee" },
    });
    expect(sc(tee)).toMatchObject({ node: "ITEMS", status: "open" });
    expect(text(tee)).toMatch(
      /"buy a tee" fits 4: .*prod_tee_l \(Logo Tee \(L\)\).*; ask the user which one/,
    );
    // The coupons are named with the field they fill, as the user's choice (never the agent's).
    expect(text(tee)).toMatch(
      /^- coupon_code — optional: ask with the missing fields; apply only on their word \(or if they asked for the cheapest\): `SAVE5` \$5\.00/m,
    );
    expect(text(tee)).toMatch(/^options\.cart \(for items\[\]\.product_id\):$/m);

    // Words kept for later steps: the address and method wait for the items the agent sends.
    const later = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "checkout", intent: "ship it to my home by express and pay by card" },
      }),
    );
    expect(later).toMatchObject({ node: "ITEMS", missing: ["items"] });
    const advanced = sc(
      await client.callTool({
        name: "advance_action",
        arguments: {
          action_id: later.action_id,
          version: later.version,
          // A product by its name in a patch is read through the same choices.
          patch: { items: [{ product_id: "Logo Tee L", quantity: 1 }] },
        },
      }),
    );
    expect(advanced).toMatchObject({ status: "awaiting_approval" });
    expect(advanced.summary).toMatchObject({
      items: [expect.objectContaining({ product_id: "prod_tee_l", quantity: 1 })],
      payment_method: { type: "card" },
      shipping_method: { value: "express" },
    });
    expect(String((advanced.summary as Json).address)).toMatch(/^Home: /);
  });

  it("'the cheapest product' is named by its price, later steps' choices the words name are taken at the start, and an empty cart offers the catalog cheapest first", async () => {
    const client = await w.connect(w.keys.alice);
    const cheapest = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          intent: "Buy one of the cheapest product in the shop, ship it home, pay from my balance.",
        },
      }),
    );
    expect(cheapest).toMatchObject({
      capability: "checkout",
      node: "SHIPPING",
      missing: ["shipping_method"],
    });
    // How the item was picked is said with it.
    expect((cheapest.why_picked as Json).items).toBe("Signpost Mug: the cheapest of 9 available");
    // The payment step is later than shipping: its method is taken now, shown as taken.
    expect(cheapest.from_words).toMatchObject({
      items: "1 × prod_mug",
      address_id: "addr_alice_home",
      payment_type: "balance",
    });
    // Three tees share the lowest price among tees (the XL is sold out): the user picks.
    const tee = await client.callTool({
      name: "start_action",
      arguments: { capability: "checkout", intent: "buy the cheapest tee" },
    });
    expect(text(tee)).toMatch(/"buy the cheapest tee" fits 3: .*; ask the user which one/);
    expect(text(tee)).not.toContain("prod_tee_xl");
    // "The two priciest" are two different products, one of each (a review found 2 × the mug);
    // "the two cheapest" share the second price among three tees: the user picks.
    const two = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "checkout", intent: "buy the two most expensive products in the shop" },
      }),
    );
    expect((two.from_words as Json).items).toBe("1 × prod_lamp, 1 × prod_headphones");
    const cheapTwo = await client.callTool({
      name: "start_action",
      arguments: { capability: "checkout", intent: "buy the two cheapest products" },
    });
    expect(text(cheapTwo)).toMatch(/fits 3: .*prod_tee.*; ask the user which one/);
    expect((two.why_picked as Json).items).toMatch(/^Desk Lamp, .*Headphones: the 2 dearest of 9 available$/);
    // A value's word in another sense is no choice: "same" is no same-day shipping, a card
    // declined is no card payment.
    const other = sc(
      await client.callTool({
        name: "start_action",
        arguments: { intent: "buy the same mug again, my card was declined last time" },
      }),
    );
    expect(String((other.from_words as Json).items)).toMatch(/× prod_mug \(Signpost Mug\)$/);
    expect((other.from_words as Json).shipping_method).toBeUndefined();
    expect((other.from_words as Json).payment_type).toBeUndefined();
    // Words that name no later step's choice take none.
    const none = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "checkout", intent: "buy a mug" },
      }),
    );
    expect((none.from_words as Json | undefined)?.payment_type).toBeUndefined();

    for (const product of ["prod_mug", "prod_tee"])
      await fetch(`${w.legacy.url}/v1/customers/cus_alice/cart/items/${product}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
      });
    const empty = await client.callTool({ name: "start_action", arguments: { capability: "checkout" } });
    expect(text(empty)).toMatch(/^options\.products \(for items\[\]\.product_id; cheapest first\b/m);
    expect(text(empty)).toMatch(/^- `prod_mug` Signpost Mug · unit_price: \$18\.00$/m);
    expect(text(empty)).toMatch(/^- `prod_tee_xl` .*possible: sold out$/m);
  });

  it("a named order shows what the capability reads: a payment its lines and total, an after-sales request what each line may take", async () => {
    const client = await w.connect(w.keys.alice);
    const pay = await client.callTool({
      name: "start_action",
      arguments: { intent: "Pay my order that is waiting for payment." },
    });
    expect(sc(pay)).toMatchObject({ capability: "pay_order", missing: ["payment_type"] });
    expect(text(pay)).toMatch(
      /^options\.order: id ord_pending, status pending_payment, items Electric Kettle ×1, total \$156\.50, ship_to Office$/m,
    );
    expect(text(pay)).not.toMatch(/returnable|exchangeable/);
    const exchange = await client.callTool({
      name: "start_action",
      arguments: { capability: "after_sales", entity_id: "ord_exchange", patch: { kind: "exchange" } },
    });
    expect(text(exchange)).toMatch(/exchangeable: true/);
  });

  it("a free-text field is taken from words that clearly give it (and shown as sent); otherwise the answer says what to send: the request verbatim, shown as sent", async () => {
    const client = await w.connect(w.keys.sam);
    const given = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "resolve_ticket",
        intent: "resolve ticket tkt_1; resolution: refunded the second charge and told the customer",
      },
    });
    // Named and needing nobody's approval, it ran in this call (issue 23: no key needed); the
    // answer still says what was taken from the words.
    expect(sc(given)).toMatchObject({ node: "VERIFIED", status: "completed" });
    expect(sc(given).from_words).toMatchObject({
      ticket_id: "tkt_1",
      resolution: '"refunded the second charge and told the customer"',
    });
    // What was sent is exactly what was taken.
    expect(text(given)).toMatch(
      /^done with: .* · Resolution: refunded the second charge and told the customer$/m,
    );

    const notGiven = await client.callTool({
      name: "start_action",
      arguments: { capability: "resolve_ticket", intent: "resolve ticket tkt_2, it is done" },
    });
    expect(sc(notGiven)).toMatchObject({ node: "RESOLUTION", missing: ["resolution"] });
    // Said exactly: the user's words as written, else their request verbatim; never a made-up one.
    expect(text(notGiven)).toMatch(
      /^- resolution: .+: the user's words, sent and shown as written; if they gave none, their request verbatim \(never words of your own\)$/m,
    );
  });

  it("a record the words describe says why it was the one taken, and why the records that nearly fit were not", async () => {
    const client = await w.connect(w.keys.sam);
    const oldest = await client.callTool({
      name: "start_action",
      arguments: { intent: "bump the oldest open shipping ticket to urgent" },
    });
    const why = (sc(oldest).why_picked ?? {}) as Json;
    // The facts the words matched, its age, and each older shipping ticket passed over with its reason.
    expect(String(why.ticket_id)).toMatch(
      /^the oldest with status open, team shipping, created \d{4}-\d\d-\d\d/,
    );
    expect(String(why.ticket_id)).toMatch(/tkt_\d+ is older but status (resolved|closed|pending)/);
    expect((sc(oldest).from_words as Json).ticket_id).toMatch(/^tkt_\d+$/);
    expect(text(oldest)).toMatch(/^taken from the words: ticket_id = tkt_\d+ \(the oldest with status open/m);
    // Described by its subject: the fact it matched, and that it is the only one; the refusal that
    // follows is then plainly about the ticket, not the pick.
    const bySubject = await client.callTool({
      name: "start_action",
      arguments: { capability: "change_ticket_priority", intent: "make the wrong size tee ticket urgent" },
    });
    expect(text(bySubject)).toMatch(
      /^taken from the words: ticket_id = tkt_9 \(fits subject "Wrong size tee"; the only one that fits\)/m,
    );
    expect(sc(bySubject).message).toMatch(/already urgent/);
    // A record quoted by its id needs no reason.
    const quoted = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "change_ticket_priority", intent: "make tkt_2 urgent" },
      }),
    );
    expect(quoted.why_picked).toBeUndefined();
  });

  it("quoted text never picks the capability: a comment quoting a refund is a comment, its quote verbatim; words no capability does get a short no with where to look", async () => {
    const sam = await w.connect(w.keys.sam);
    const commented = sc(
      await sam.callTool({
        name: "start_action",
        arguments: {
          intent:
            "Add a comment to the ticket about the SAVE5 coupon: 'We re-applied the coupon, refund of 5.00 on its way.'",
        },
      }),
    );
    expect(commented.capability).toBe("comment_ticket");
    expect(JSON.stringify(commented)).toContain("We re-applied the coupon, refund of 5.00 on its way.");
    const before = await w.db.action.count();
    // Words about a ticket that only capabilities of another kind of record match.
    const intent = "Pay for the ticket about the SAVE5 coupon: 'refund of 5.00 on its way'";
    const out = await sam.callTool({ name: "start_action", arguments: { intent } });
    expect(sc(out)).toMatchObject({ outcome: "rejected", reason: "no_capability_fits" });
    expect(sc(out).next_actions).toEqual([{ tool: "search_capabilities", description: expect.any(String) }]);
    expect(text(out)).toContain("To read or list records: search");
    expect(await w.db.action.count()).toBe(before);
    const searched = await sam.callTool({ name: "search_capabilities", arguments: { query: intent } });
    expect(text(searched)).toMatch(/No capability does what these words ask/);
    expect(sc(searched).next_actions).toEqual([]);
    // The same quote in any quote marks; the request's own words still choose.
    for (const quote of [
      '"refund of 5.00 on its way"',
      "“refund of 5.00 on its way”",
      "‘refund of 5.00 on its way’",
    ]) {
      const found = sc(
        await sam.callTool({
          name: "search_capabilities",
          arguments: { query: `Add a comment to the ticket: ${quote}` },
        }),
      );
      expect((found.results as Json[]).map((r) => r.capability)).not.toContain("after_sales");
    }
    const resolve = sc(
      await sam.callTool({
        name: "start_action",
        arguments: { intent: "Resolve ticket tkt_2: 'refund of 5.00 on its way'" },
      }),
    );
    expect(resolve.capability).toBe("resolve_ticket");
  });

  it("a record's id is no word of the request: 'deliver my kettle order to my home instead' on ord_pending is an address change, not a payment", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = sc(
      await alice.callTool({
        name: "start_action",
        arguments: {
          intent: "Please deliver my kettle order to my home address instead",
          entity_id: "ord_pending",
        },
      }),
    );
    expect(out.reason).toBeUndefined();
    expect(out.capability).toBe("change_delivery_address");
  });
});
