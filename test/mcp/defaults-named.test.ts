import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * A field the action filled from its own default is named as such in the agent's answer, with
 * the other choices, so the agent can ask the user. Round 3: checkout's summary said "Shipping:
 * Standard" though the user named no shipping method, and only the form said "the cheapest when
 * left out".
 */
describe("defaults the user never named are said in the answer", () => {
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

  it("checkout without a shipping method: the default, and the other methods with their prices", async () => {
    const client = await w.connect(w.keys.alice);
    const res = await client.callTool({ name: "start_action", arguments: { capability: "checkout", patch } });
    expect(sc(res)).toMatchObject({
      node: "CONFIRM_ORDER",
      defaulted: { shipping_method: { value: "standard" } },
    });
    expect(text(res)).toMatch(
      /^defaults \(the user named none; ask them if it matters\): shipping_method = standard \(other choices: `express` \$\d+\.\d\d, `same_day` \$\d+\.\d\d\)$/m,
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
    // Filled in two steps: the answer that applied the default says so.
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
    expect(text(advanced)).toMatch(/^defaults .*shipping_method = standard/m);
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
