import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
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
    expect(text(picked)).toMatch(/^ask the user: .*before confirm_action$/m);
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

  it("checkout offers the cart's coupons from the first step, and paying takes what was bought out of the cart", async () => {
    const client = await w.connect(w.keys.alice);
    const first = await client.callTool({ name: "start_action", arguments: { capability: "checkout" } });
    expect(((sc(first).options as Json).available_coupons as Json[]).map((c) => c.code)).toContain("SAVE5");
    expect(text(first)).toMatch(/^options\.available_coupons:\n- `SAVE5`/m);

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
    // The mugs were bought: only the tee stays in the cart.
    const after = (await legacy("/v1/customers/cus_alice/cart")).items as Array<{ product_id: string }>;
    expect(after.map((i) => i.product_id)).toEqual(["prod_tee"]);
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
});
