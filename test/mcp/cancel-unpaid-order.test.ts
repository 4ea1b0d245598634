import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { approve } from "../gateway/gateway-world";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Issue 23 (played): "Cancel my order that's waiting for payment, I don't need the kettle anymore"
 * found no capability. cancel_unpaid_order cancels an order not paid yet (no money moves): at once
 * on the one order the user meant, else it asks; a paid order's cancel stays after_sales' (a
 * refund the user approves). Seed: ord_pending (kettle, pending_payment), ord_paid (lamp + mug).
 */
describe("cancel an unpaid order (MCP over HTTP, real gateway and legacy service)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const legacy = async (path: string, init: RequestInit = {}) =>
    (await (
      await fetch(`${w.legacy.url}/v1/${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${w.legacy.apiKeys.acme}`,
          "content-type": "application/json",
          ...(init.headers ?? {}),
        },
      })
    ).json()) as Json;
  const statusOf = async (id: string) => (await legacy(`orders/${id}`)).status;
  const start = async (args: Json) =>
    (await w.connect(w.keys.alice)).callTool({ name: "start_action", arguments: args });

  it("the user's words cancel their only unpaid order at once: no money moves, verified, audited, once", async () => {
    const intent = "Cancel my order that's waiting for payment, I don't need the kettle anymore.";
    const out = await start({ intent });
    const s = sc(out);
    expect(s.capability).toBe("cancel_unpaid_order");
    expect(s.status).toBe("completed");
    expect(text(out)).toMatch(/verified at the system of record/);
    // The summary's total as money, as the capability declares it, never bare cents.
    expect(text(out)).toMatch(/total: \$\d+\.\d\d/i);
    expect(text(out)).not.toMatch(/total: \d/i);
    expect(await statusOf("ord_pending")).toBe("cancelled");
    // No refund: nothing was paid.
    expect((await legacy("orders/ord_pending")).refunds ?? []).toEqual([]);
    // The action key went to the legacy system as its idempotency key and reference.
    const effect = await w.db.effect.findUniqueOrThrow({ where: { actionId: String(s.action_id) } });
    expect(effect).toMatchObject({ kind: "shop.order_cancel", status: "applied", externalId: "ord_pending" });
    const replay = await fetch(`${w.legacy.url}/v1/orders/ord_pending/cancel`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${w.legacy.apiKeys.acme}`,
        "content-type": "application/json",
        "idempotency-key": effect.actionKey,
      },
      body: JSON.stringify({ reason: "cancelled before payment", reference: effect.actionKey }),
    });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const audit = await w.db.auditEvent.findMany({ where: { actionId: String(s.action_id) } });
    expect(audit.map((a) => a.operation)).toEqual(
      expect.arrayContaining(["action.started", "action.confirmed"]),
    );
    // The same request resent is the first one's outcome, never a second cancel.
    const again = sc(await start({ intent }));
    expect(again.reason).toBe("same_request");
    expect(await w.db.effect.count({ where: { kind: "shop.order_cancel" } })).toBe(1);
    // verify_action reads the order's status.
    const verified = await (await w.connect(w.keys.alice)).callTool({
      name: "verify_action",
      arguments: { action_id: String(s.action_id) },
    });
    expect(text(verified)).toMatch(/status cancelled/);
  });

  it("with two unpaid orders and words naming neither, nothing runs: the candidates are listed to ask the user", async () => {
    const placed = await legacy("orders", {
      method: "POST",
      body: JSON.stringify({
        customer_id: "cus_alice",
        items: [{ product_id: "prod_mug", quantity: 1 }],
        address_id: "addr_alice_home",
        shipping_method: "standard",
      }),
    });
    const out = await start({ capability: "cancel_unpaid_order", entity_id: "ord_pending" });
    const s = sc(out);
    expect(s.ask_user as Json).toMatchObject({ record: "ord_pending" });
    expect(JSON.stringify(s.ask_user)).toContain(String(placed.id));
    expect(await statusOf("ord_pending")).toBe("pending_payment");
    // The words naming the kettle order run it at once.
    const named = sc(
      await start({ capability: "cancel_unpaid_order", intent: "cancel my unpaid kettle order" }),
    );
    expect(named.status).toBe("completed");
    expect(await statusOf("ord_pending")).toBe("cancelled");
    expect(await statusOf(String(placed.id))).toBe("pending_payment");
  });

  it("a paid order is refused, pointing at after_sales' cancel and refund; the words 'cancel my lamp order' go there, to the user's approval", async () => {
    const refused = sc(await start({ capability: "cancel_unpaid_order", entity_id: "ord_paid" }));
    expect(refused).toMatchObject({ outcome: "rejected", status: "refused", reason: "order_paid" });
    expect(refused.next_actions[0]).toMatchObject({
      tool: "start_action",
      args: { capability: "after_sales", entity_id: "ord_paid" },
    });
    const words = await start({ intent: "Cancel my lamp order." });
    const s = sc(words);
    expect(s.capability).toBe("after_sales");
    expect(s.status).toBe("awaiting_approval");
    expect(s.from_words as Json).toMatchObject({ kind: "refund_only" });
    expect(text(words)).toMatch(/Cancel the order and refund \$316\.00/);
    expect(await statusOf("ord_paid")).toBe("paid");
    const decided = await approve(w, String(s.action_id));
    expect(decided.result?.outcome).toBe("applied");
    expect(await statusOf("ord_paid")).toBe("cancelled");
  });

  it("a shipped order's refusal says what is possible instead: a return once delivered, tracking until then", async () => {
    const out = await start({ intent: "Cancel my headphones order." });
    expect(sc(out)).toMatchObject({ status: "refused", reason: "order_already_shipped" });
    expect(text(out)).toMatch(
      /can no longer be cancelled: once it is delivered, a return and refund can be asked/,
    );
    expect(await statusOf("ord_transit")).toBe("shipped");
    // Past its return window, no return is offered instead (review 54b).
    const old = await start({ capability: "cancel_unpaid_order", entity_id: "ord_delivered_old" });
    expect(text(old)).toMatch(/can no longer be cancelled, nor returned/);
    expect(JSON.stringify(sc(old).next_actions ?? [])).not.toContain('"after_sales"');
  });

  it("search finds it by the user's words; after_sales on an unpaid order points at it", async () => {
    const client = await w.connect(w.keys.alice);
    for (const query of ["cancel my unpaid order", "I don't need it anymore"]) {
      const found = sc(await client.callTool({ name: "search_capabilities", arguments: { query } }));
      expect((found.results as Json[])[0]?.capability, query).toBe("cancel_unpaid_order");
    }
    const after = sc(await start({ capability: "after_sales", entity_id: "ord_pending" }));
    expect(after.status).toBe("refused");
    expect(after.next_actions).toContainEqual(
      expect.objectContaining({ args: { capability: "cancel_unpaid_order", entity_id: "ord_pending" } }),
    );
  });

  it("the order page links the cancel form only on an unpaid order, and its submit with the user's words runs it", async () => {
    const client = await w.connect(w.keys.alice);
    const nav = async (uri: string) => text(await client.callTool({ name: "navigate", arguments: { uri } }));
    expect(await nav("shop://order/ord_pending")).toContain("shop://order/ord_pending/cancel");
    expect(await nav("shop://order/ord_paid")).not.toContain("/cancel");
    const submitted = text(
      await client.callTool({
        name: "submit",
        arguments: {
          uri: "shop://order/ord_pending/cancel",
          fields: { user_words: "cancel my kettle order, I never paid for it" },
        },
      }),
    );
    expect(submitted).toMatch(/ · completed · version/);
    expect(await statusOf("ord_pending")).toBe("cancelled");
  });
});
