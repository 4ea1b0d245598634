import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * A choice that changes what the user pays is never filled from a default: it is missing, and
 * the answer lists every choice with its price so the agent asks the user once. Round 3:
 * checkout's summary said "Shipping: Standard" though the user named no shipping method; round
 * 4: the default was named, but the action still went to approval with a price nobody chose.
 */
describe("paid choices the user never named are asked, not defaulted", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const patch = {
    items: [{ product_id: "prod_mug", quantity: 2 }],
    address_id: "Office",
    payment_type: "balance",
  };

  it("checkout without a shipping method: missing, with every method and its price; no default", async () => {
    const client = await w.connect(w.keys.alice);
    const res = await client.callTool({ name: "start_action", arguments: { capability: "checkout", patch } });
    const out = sc(res);
    expect(out).toMatchObject({ node: "SHIPPING", missing: ["shipping_method"] });
    expect(out.defaulted).toBeUndefined();
    expect(out.summary).toBeNull();
    expect(text(res)).toMatch(/^missing: shipping_method$/m);
    // The choices and their prices on one line under it, not as a list the agent must read apart;
    // each with the order's total, so "what would it cost?" needs no further step (issue 23).
    expect(text(res)).toMatch(
      /^- shipping_method — the user's choice, each changes what is paid; ask them: `standard` \$\d+\.\d\d, total \$\d+\.\d\d \(eta_days \d+\), `express` \$\d+\.\d\d, total \$\d+\.\d\d \(eta_days \d+\), `same_day` \$\d+\.\d\d/m,
    );
    expect(text(res)).not.toMatch(/^options\.shipping_methods/m);
    expect(text(res)).not.toMatch(/^defaults/m);
    expect(text(res)).not.toMatch(/confirm_action/);
  });

  it("a dry run asks the same question, priced the same way", async () => {
    const client = await w.connect(w.keys.alice);
    const res = await client.callTool({
      name: "start_action",
      arguments: { capability: "checkout", patch, dry_run: true },
    });
    expect(sc(res)).toMatchObject({ outcome: "preview", missing: ["shipping_method"] });
    expect(text(res)).toMatch(
      /^- shipping_method — the user's choice.*`standard` \$\d+\.\d\d.*`express` \$\d+\.\d\d/m,
    );
  });

  it("the user's words name the method: taken from them, no question", async () => {
    const client = await w.connect(w.keys.alice);
    const res = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "checkout",
        intent: "buy 2 mugs, ship to my office with express shipping, pay from my balance",
        patch,
      },
    });
    expect(sc(res)).toMatchObject({ node: "CONFIRM_ORDER", from_words: { shipping_method: "express" } });
    expect(sc(res).paid_choices).toBeUndefined();
  });

  it("search_capabilities says up front which inputs the user must choose", async () => {
    const client = await w.connect(w.keys.alice);
    const res = await client.callTool({ name: "search_capabilities", arguments: { query: "buy a mug" } });
    expect(text(res)).toMatch(
      /`checkout`.*the user chooses \(prices differ, never defaulted\): shipping_method/,
    );
  });

  it("named by the agent's patch or reached by advance: no default is claimed", async () => {
    const client = await w.connect(w.keys.alice);
    const res = await client.callTool({
      name: "start_action",
      arguments: { capability: "checkout", patch: { ...patch, shipping_method: "express" } },
    });
    expect(sc(res).defaulted).toBeUndefined();
    expect(text(res)).not.toMatch(/^defaults/m);
    // Filled in two steps.
    const first = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "checkout", patch: { items: patch.items, payment_type: "balance" } },
      }),
    );
    const advanced = await client.callTool({
      name: "advance_action",
      arguments: {
        action_id: first.action_id,
        version: first.version,
        patch: { address_id: "addr_alice_office" },
      },
    });
    // Reached by advance: the question comes then, with the prices.
    expect(sc(advanced)).toMatchObject({ missing: ["shipping_method"] });
    expect(text(advanced)).toMatch(/^- shipping_method — the user's choice.*`express` \$\d+\.\d\d/m);
    expect(text(advanced)).not.toMatch(/^defaults/m);
  });

  it("a field the user's words name is taken from them, never called a default, even where the node's default is the same", async () => {
    const client = await w.connect(w.keys.alice);
    // Before shipment the one open path is refund-only, which the node would default; "cancel" names it.
    const cancel = await client.callTool({
      name: "start_action",
      arguments: { capability: "after_sales", entity_id: "ord_paid", intent: "Cancel it, I changed my mind" },
    });
    expect(sc(cancel).from_words).toMatchObject({ kind: "refund_only" });
    expect((sc(cancel).defaulted as Record<string, unknown> | undefined)?.kind).toBeUndefined();
    expect(text(cancel)).not.toMatch(/^defaults .*kind/m);
    expect(text(cancel)).toMatch(/^taken from the words: .*kind = refund_only/m);
    // Words naming another choice than the default are the user's: that choice, with why it is
    // not possible now, never the default in its place.
    const exchange = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "after_sales", entity_id: "ord_paid", intent: "exchange it please" },
      }),
    );
    expect(exchange).toMatchObject({ from_words: { kind: "exchange" }, node: "PATH" });
    expect(exchange.defaulted).toBeUndefined();
    expect(exchange.message).toMatch(/only after delivery.*Possible now: refund_only/);
  });
});
