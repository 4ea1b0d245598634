import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { approve } from "../gateway/gateway-world";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Issue 23 (set AG, task 7): "Take the tee out of my cart" searched for a capability that changes
 * the cart and found only checkout; the model gave up after two calls, where the REST wrapper did
 * it in one. update_cart sets a product's quantity in the caller's own cart (0 removes it), from
 * the user's words in one start_action, once the user approves it on their own screen (review
 * 52c: words that never asked for it ran it when it needed nobody), with typed refusals.
 * Alice's cart: 2 × prod_mug, 1 × prod_tee. Real MCP client, gateway and legacy service.
 */
describe("changing the caller's cart in one call, on the user's approval", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const cartOf = async (customer: string) => {
    const res = await fetch(`${w.legacy.url}/v1/customers/${customer}/cart`, {
      headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
    });
    const body = (await res.json()) as { items: Array<{ product_id: string; quantity: number }> };
    return Object.fromEntries(body.items.map((i) => [i.product_id, i.quantity]));
  };
  /** The action waits for the user, the cart untouched; the user's approval runs it. */
  const approved = async (result: Awaited<ReturnType<typeof start>>, before: Json) => {
    const s = sc(result);
    expect(s, text(result)).toMatchObject({ capability: "update_cart", status: "awaiting_approval" });
    expect(await cartOf("cus_alice")).toEqual(before);
    const decided = await approve(w, String(s.action_id));
    expect(decided.result?.outcome, JSON.stringify(decided)).toBe("applied");
  };
  const start = async (intent: string) =>
    (await w.connect(w.keys.alice)).callTool({ name: "start_action", arguments: { intent } });

  it.each([
    ["Take the tee out of my cart", { prod_mug: 2 }],
    ["remove the mug from my cart", { prod_tee: 1 }],
  ])("'%s' changes the cart as the words say, once the user approves", async (intent, after) => {
    const others = await cartOf("cus_adam");
    await approved(await start(intent), { prod_mug: 2, prod_tee: 1 });
    expect(await cartOf("cus_alice")).toEqual(after);
    // Nobody else's cart moved.
    expect(await cartOf("cus_adam")).toEqual(others);
  });

  // "add" is a ticket's word too (a comment), and "want … in my cart" has no verb of its own:
  // near checkout's "cart", the start offers both and runs neither; named, the change runs.
  it.each([
    // "add one hoodie to my cart" starts the change itself now (below).
    ["I want 3 mugs in my cart", { prod_mug: 3, prod_tee: 1 }],
  ])(
    "'%s' offers the change beside checkout and starts neither; named, the change runs",
    async (intent, after) => {
      const result = await start(intent);
      expect(sc(result).status, text(result)).not.toBe("completed");
      expect(text(result)).toContain("update_cart");
      expect(await cartOf("cus_alice")).toEqual({ prod_mug: 2, prod_tee: 1 });
      expect(await w.db.action.count({ where: { capability: "checkout" } })).toBe(0);
      const named = await (await w.connect(w.keys.alice)).callTool({
        name: "start_action",
        arguments: { capability: "update_cart", intent },
      });
      await approved(named, { prod_mug: 2, prod_tee: 1 });
      expect(await cartOf("cus_alice")).toEqual(after);
    },
  );

  it("removing what is not in the cart is refused, saying what the cart holds; nothing changes", async () => {
    const result = await start("remove the hoodie from my cart");
    const s = sc(result);
    expect(s, text(result)).toMatchObject({ outcome: "rejected", reason: "not_in_cart" });
    expect(text(result)).toContain("Hoodie (M) is not in your cart");
    expect(text(result)).toContain("Signpost Mug ×2");
    expect(await cartOf("cus_alice")).toEqual({ prod_mug: 2, prod_tee: 1 });
  });

  it("more than the stock is refused with how many there are; nothing changes", async () => {
    const result = await (await w.connect(w.keys.alice)).callTool({
      name: "start_action",
      arguments: { capability: "update_cart", intent: "I want 50 hoodies in my cart" },
    });
    const s = sc(result);
    expect(s, text(result)).toMatchObject({ reason: "insufficient_stock" });
    expect(text(result)).toContain("Only 15 of Hoodie (M) in stock (asked 50)");
    expect(await cartOf("cus_alice")).toEqual({ prod_mug: 2, prod_tee: 1 });
  });

  it("the cart changed is always the caller's own: no argument reaches another customer's", async () => {
    const before = await cartOf("cus_adam");
    const alice = await w.connect(w.keys.alice);
    const result = await alice.callTool({
      name: "start_action",
      arguments: {
        capability: "update_cart",
        patch: { product_id: "prod_hoodie", quantity: 2, customer_id: "cus_adam" },
      },
    });
    expect(sc(result).status, text(result)).not.toBe("completed");
    expect(await cartOf("cus_adam")).toEqual(before);
    // Without the stray field it is Alice's cart that changes, never Adam's.
    const ok = await alice.callTool({
      name: "start_action",
      arguments: { capability: "update_cart", patch: { product_id: "prod_hoodie", quantity: 2 } },
    });
    await approved(ok, { prod_mug: 2, prod_tee: 1 });
    expect(await cartOf("cus_alice")).toEqual({ prod_mug: 2, prod_tee: 1, prod_hoodie: 2 });
    expect(await cartOf("cus_adam")).toEqual(before);
  });

  it("the cart page offers the change; search for a removal finds it, and buying the cart still finds checkout", async () => {
    const alice = await w.connect(w.keys.alice);
    const cart = text(await alice.callTool({ name: "navigate", arguments: { uri: "shop://cart" } }));
    expect(cart).toContain("shop://cart/change");
    // Set AZ: whether `quantity` is added or the new count was read from the form, a call more.
    expect(cart).toMatch(
      /\[Change the cart \\\(quantity: the count it holds after; 0 removes\\\)\]\(shop:\/\/cart\/change\)/,
    );
    const found = async (query: string) =>
      sc(await alice.callTool({ name: "search_capabilities", arguments: { query } })) as Json;
    const first = (r: Json) => ((r.capabilities ?? r.results) as Json[] | undefined)?.[0]?.capability;
    expect(first(await found("remove item from cart"))).toBe("update_cart");
    // Set BB: "Set the mugs in my cart to just one" tied the cart change with checkout ("cart").
    const set = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Set the mugs in my cart to just one.", dry_run: true },
    });
    expect(sc(set), text(set)).toMatchObject({ capability: "update_cart", outcome: "preview" });
    expect(text(set)).toMatch(/product_id = prod_mug .*quantity = 1/);
    expect(first(await found("Buy what's in my cart"))).toBe("checkout");
  });

  // Review 52c: each ran at once when the change needed nobody; now nothing moves before the
  // user's own approval, whose screen shows the line and the count.
  it.each([
    [{ intent: "should I remove the mug from my cart?" }],
    [{ intent: "remove the mug from Adam's cart" }],
    [{ capability: "update_cart", intent: "don't remove the mug" }],
  ])("words that did not ask for it change nothing: %j", async (args) => {
    const adam = await cartOf("cus_adam");
    const result = await (await w.connect(w.keys.alice)).callTool({ name: "start_action", arguments: args });
    expect(sc(result).status, text(result)).not.toBe("completed");
    expect(await cartOf("cus_alice")).toEqual({ prod_mug: 2, prod_tee: 1 });
    expect(await cartOf("cus_adam")).toEqual(adam);
  });

  it.each(["add -3 mugs to my cart", "add 1e9 mugs to my cart", "add 2.5 mugs to my cart"])(
    "a number no count reads whole is never taken as one: %s",
    async (intent) => {
      const result = await (await w.connect(w.keys.alice)).callTool({
        name: "start_action",
        arguments: { capability: "update_cart", intent },
      });
      expect(sc(result).status, text(result)).not.toBe("awaiting_approval");
      expect(await cartOf("cus_alice")).toEqual({ prod_mug: 2, prod_tee: 1 });
    },
  );

  it("'don't remove the mug', the capability named, sets no count from 'remove': the agent asks", async () => {
    const result = await (await w.connect(w.keys.alice)).callTool({
      name: "start_action",
      arguments: { capability: "update_cart", intent: "don't remove the mug" },
    });
    expect(sc(result).status, text(result)).not.toBe("awaiting_approval");
    expect(await cartOf("cus_alice")).toEqual({ prod_mug: 2, prod_tee: 1 });
  });

  it.each([
    ["Put two Logo Tees in size L in my cart.", { prod_mug: 2, prod_tee: 1, prod_tee_l: 2 }],
    ["add one hoodie to my cart", { prod_mug: 2, prod_tee: 1, prod_hoodie: 1 }],
    ["put the mug back in my cart", undefined],
  ])(
    "words that put something into the cart start the cart change, not a checkout: %s",
    async (intent, after) => {
      // Set AI: "put two Logo Tees in size L in my cart" was offered as a checkout first, and the
      // cart's size-M tee, which the words' size contradicts, hid the size-L tee they name.
      const result = await start(intent);
      expect(sc(result).capability, text(result)).toBe("update_cart");
      if (!after) return;
      await approved(result, { prod_mug: 2, prod_tee: 1 });
      expect(await cartOf("cus_alice")).toEqual(after);
    },
  );

  it.each(["buy two mugs and put them on my card", "add the SAVE5 coupon and buy my cart"])(
    "words that only say 'put' or 'add' elsewhere still buy: %s",
    async (intent) => {
      const hits = sc(
        await (await w.connect(w.keys.alice)).callTool({
          name: "search_capabilities",
          arguments: { query: intent },
        }),
      ).results as Array<{ capability: string }>;
      expect(hits[0]?.capability).toBe("checkout");
    },
  );
});

/**
 * Set BZ (task 2): "Add a desk lamp to my cart and tell me what the cart comes to" read
 * "1 × Desk Lamp in the cart (was 0)" as the whole cart and read the cart again. The change says
 * the whole cart after it and its items' sum, on the person's screen and in the agent's text.
 */
describe("a cart change says the whole cart after it", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("adding a lamp names the lines already there and what the items come to", async () => {
    const client = await w.connect(w.keys.alice);
    const t = text(
      await client.callTool({ name: "start_action", arguments: { intent: "Add a desk lamp to my cart" } }),
    );
    // 2 mugs at $18, 1 tee at $25, the lamp at $320.
    expect(t).toContain("Cart after: Desk Lamp ×1 (was 0), Signpost Mug ×2, Logo Tee (M) ×1");
    expect(t).toContain("Cart items after (before shipping): $381.00");
  });

  // Review 63: the other lines are context, not what is approved; two changes waiting at once
  // both apply on their approvals (the second was voided as changed since approval).
  it("two changes waiting at once both apply, each on its own approval", async () => {
    const client = await w.connect(w.keys.alice);
    const started = [];
    for (const intent of ["Add a desk lamp to my cart", "Add a hoodie to my cart"])
      started.push(sc(await client.callTool({ name: "start_action", arguments: { intent } })));
    for (const s of started) {
      const decided = await approve(w, String(s.action_id));
      expect(decided.result?.outcome, JSON.stringify(decided)).toBe("applied");
    }
  });

  // Set CO: the form's answer that left the change with the user said only the line's from and
  // to, and the result after the approval only the quantity: the model read the cart again to
  // tell the user what it came to. The brief keeps the context; the result says the sum.
  it("a form's submit and the result after the approval say what the cart comes to", async () => {
    const client = await w.connect(w.keys.alice, { faces: "browse" });
    const res = await client.callTool({
      name: "submit",
      arguments: {
        uri: "shop://cart/change",
        fields: {
          product_id: "prod_mug",
          quantity: 4,
          user_words: "Add two more mugs and tell me the total.",
        },
      },
    });
    // 4 mugs at $18, 1 tee at $25.
    const plain = (t: string) => t.replace(/[\\*]/g, "");
    expect(plain(text(res))).toContain("Cart items after (before shipping): $97.00");
    const id = String(text(res).match(/Action ([a-z0-9]+)/)?.[1]);
    const decided = await approve(w, id);
    expect(decided.result?.outcome, JSON.stringify(decided)).toBe("applied");
    const read = text(await client.callTool({ name: "navigate", arguments: { uri: `actions://${id}` } }));
    expect(plain(read)).toMatch(/subtotal: \$97\.00/i);
  });

  // Review 66: a cancelled change's page and answer said "Cart after: … $97.00" of a cart that
  // never changed.
  it("a cancelled cart change says no cart after it", async () => {
    const client = await w.connect(w.keys.alice);
    const started = sc(
      await client.callTool({ name: "start_action", arguments: { intent: "Set the mugs in my cart to 4." } }),
    );
    const cancelled = text(
      await client.callTool({ name: "cancel_action", arguments: { action_id: String(started.action_id) } }),
    );
    expect(cancelled).not.toContain("Cart after");
    const browse = await w.connect(w.keys.alice, { faces: "browse" });
    const page = text(
      await browse.callTool({ name: "navigate", arguments: { uri: `actions://${started.action_id}` } }),
    );
    expect(page).toContain("cancelled");
    expect(page).not.toContain("Cart after");
  });

  it("taking out the last lines says the cart is empty", async () => {
    const client = await w.connect(w.keys.alice);
    const mug = text(
      await client.callTool({ name: "start_action", arguments: { intent: "remove the mug from my cart" } }),
    );
    expect(mug).toContain("Cart after: Signpost Mug taken out, Logo Tee (M) ×1");
    expect(mug).toContain("Cart items after (before shipping): $25.00");
  });
});
