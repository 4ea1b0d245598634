import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  capabilityRegistry,
  recordIdPrefixes,
  searchSynonyms,
  searchTopics,
} from "@/server/connectors/connector-registry";
import { buildCapabilityIndex } from "@/server/engine/capability-search";
import { decisionSentence } from "@/server/engine/decision-sentence";
import { approve, createWorld, idem, type World } from "../gateway/gateway-world";
import { describeEachProvider } from "../helpers/database";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

/**
 * pay_order pays the order that awaits payment. The bug it answers: "pay for my pending kettle
 * order" started checkout, which placed a second order with the same items and charged it, while
 * ord_pending stayed unpaid. Everything here runs against the real legacy service.
 */

async function legacy<T>(w: World, path: string): Promise<T> {
  const res = await fetch(`${w.legacy.url}${path}`, {
    headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
  });
  return (await res.json()) as T;
}
const listed = <T>(body: { data?: T[] } | T[]) => (Array.isArray(body) ? body : (body.data ?? []));
const balanceOf = async (w: World, customer = "cus_alice") =>
  (await legacy<{ balance: number }>(w, `/v1/customers/${customer}`)).balance;
const orderOf = (w: World, id: string) => legacy<{ status: string; total: number }>(w, `/v1/orders/${id}`);
const ordersOfAlice = async (w: World) =>
  (await legacy<{ total: number }>(w, "/v1/orders?customer_id=cus_alice&per_page=100")).total;
const paymentsWhere = async (w: World, query: string) =>
  listed(await legacy<{ data?: Array<{ order_id: string; amount: number }> }>(w, `/v1/payments?${query}`));

describeEachProvider("pay_order through the gateway (%s, real legacy service)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const startPay = (order?: string, patch?: Record<string, unknown>, who: keyof World["agent"] = "alice") =>
    w.gw.startAction(w.agent[who], {
      capability: "pay_order",
      ...(order ? { entity_id: order } : {}),
      ...(patch ? { patch } : {}),
    });

  it("pays ord_pending itself, once, after approval: balance debited once, the order paid, no new order", async () => {
    const { total } = await orderOf(w, "ord_pending");
    const balanceBefore = await balanceOf(w);
    const ordersBefore = await ordersOfAlice(w);
    const start = await startPay("ord_pending", { payment_type: "balance" });
    expect(start).toMatchObject({
      outcome: "applied",
      node: "CONFIRM_PAYMENT",
      requires_confirmation: true,
      status: "awaiting_approval",
      summary: {
        title: `Pay $${(total / 100).toFixed(2)} for order ord_pending`,
        order_id: "ord_pending",
        amount: total,
        items: [expect.objectContaining({ product_id: "prod_kettle", quantity: 1 })],
        payment_method: { type: "balance", label: "Store credit" },
        decision: { verb: "Pay", amount: total, from: "Store credit", to: "existing order ord_pending" },
      },
    });
    // The sentence on the confirm screen's heading and button names the existing order.
    expect(decisionSentence(start.summary)).toBe(
      `Pay $${(total / 100).toFixed(2)} from Store credit to existing order ord_pending`,
    );
    const id = start.action_id as string;

    // Before a person approves, a confirm sends nothing.
    const early = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    expect(early).toMatchObject({ outcome: "rejected", reason: "approval_pending" });
    expect(await paymentsWhere(w, "order_id=ord_pending")).toHaveLength(0);

    // The person's approval pays it: the agent calls nothing more.
    expect(await approve(w, id)).toMatchObject({ outcome: "applied", result: { outcome: "applied" } });
    expect(await paymentsWhere(w, "order_id=ord_pending")).toHaveLength(1);
    const key = idem("confirm");
    const confirmed = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: key });
    expect(confirmed).toMatchObject({
      outcome: "applied",
      reason: "applied_on_approval",
      status: "completed",
      effect: { status: "applied" },
      verification: { status: "paid", amount: total, order_id: "ord_pending", payments: 1 },
      next_actions: [],
    });
    const actionKey = (confirmed.effect as { action_key: string }).action_key;
    expect(await paymentsWhere(w, `reference=${encodeURIComponent(actionKey)}`)).toEqual([
      expect.objectContaining({ order_id: "ord_pending", amount: total }),
    ]);
    expect((await orderOf(w, "ord_pending")).status).toBe("paid");
    expect(balanceBefore - (await balanceOf(w))).toBe(total);
    expect(await ordersOfAlice(w)).toBe(ordersBefore);

    // Every later confirm, whatever its key, finds the approval's payment; no second charge.
    const replay = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: key });
    expect(replay).toMatchObject({
      outcome: "applied",
      reason: "applied_on_approval",
      external_id: confirmed.external_id,
    });
    const other = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem("other") });
    expect(other).toMatchObject({ outcome: "applied", reason: "applied_on_approval" });
    expect(await paymentsWhere(w, "order_id=ord_pending")).toHaveLength(1);
    expect(balanceBefore - (await balanceOf(w))).toBe(total);
    expect(await w.db.effect.count({ where: { actionId: id } })).toBe(1);

    // Now paid: a new attempt is refused with the reason.
    const again = await startPay("ord_pending", { payment_type: "balance" });
    expect(again).toMatchObject({ outcome: "rejected", reason: "order_already_paid" });
  });

  it("an order paid elsewhere while the person reviews is not charged again when they approve, and they are told why", async () => {
    const start = await startPay("ord_pending", { payment_type: "card" });
    const { total } = await orderOf(w, "ord_pending");
    const direct = await fetch(`${w.legacy.url}/v1/payments`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${w.legacy.apiKeys.acme}`,
        "content-type": "application/json",
        "idempotency-key": idem("direct"),
      },
      body: JSON.stringify({ order_id: "ord_pending", payment_method_id: "pm_alice_card", amount: total }),
    });
    expect(direct.status).toBe(201);
    // The approval's run re-checks the order at the system of record: nothing is sent.
    const decided = await approve(w, start.action_id as string);
    expect(decided).toMatchObject({ approval: { status: "approved" }, result: { outcome: "conflict" } });
    expect(decided.result?.next).toMatch(/Nothing was sent/);
    const confirmed = await w.gw.confirmAction(w.agent.alice, {
      action_id: start.action_id,
      idempotency_key: idem(),
    });
    expect(confirmed.outcome).not.toBe("applied");
    expect(JSON.stringify(confirmed.validation_errors)).toMatch(/order_already_paid/);
    expect(await paymentsWhere(w, "order_id=ord_pending")).toHaveLength(1);
    expect(await w.db.effect.count({ where: { actionId: start.action_id as string } })).toBe(0);
  });

  it("pays by card too: the order is paid and the balance is untouched", async () => {
    const balanceBefore = await balanceOf(w);
    const start = await startPay("ord_pending", { payment_type: "card" });
    expect(start.summary).toMatchObject({ payment_method: { type: "card" } });
    expect((start.summary as Record<string, unknown>).now).toBeUndefined();
    await approve(w, start.action_id as string);
    const confirmed = await w.gw.confirmAction(w.agent.alice, {
      action_id: start.action_id,
      idempotency_key: idem(),
    });
    expect(confirmed).toMatchObject({ outcome: "applied", status: "completed" });
    expect((await orderOf(w, "ord_pending")).status).toBe("paid");
    expect(await balanceOf(w)).toBe(balanceBefore);
  });

  it("with no order named, offers the user's orders with whether each can be paid and why not", async () => {
    const start = await startPay();
    expect(start).toMatchObject({ outcome: "input_required", node: "ORDER", missing: ["order_id"] });
    const orders = (start.options as { orders: Array<{ id: string; possible: string }> }).orders;
    const possible = Object.fromEntries(orders.map((o) => [o.id, o.possible]));
    expect(possible.ord_pending).toBe("yes");
    expect(possible.ord_paid).toMatch(/already paid/);
    expect(possible.ord_cancelled).toMatch(/cancelled/);
    const named = await w.gw.advanceAction(w.agent.alice, {
      action_id: start.action_id,
      version: start.version,
      patch: { order_id: "ord_pending" },
    });
    expect(named).toMatchObject({ outcome: "input_required", node: "PAYMENT", missing: ["payment_type"] });
    expect(
      (named.options as { payment_methods: Array<{ type: string }> }).payment_methods.map((m) => m.type),
    ).toEqual(["balance", "card"]);
  });

  it("refuses an order that is paid, shipped or cancelled, saying why", async () => {
    const paid = await startPay("ord_paid", { payment_type: "balance" });
    expect(paid).toMatchObject({ outcome: "rejected", reason: "order_already_paid" });
    expect(paid.message).toMatch(/already paid.*nothing to pay/);
    const cancelled = await startPay("ord_cancelled", { payment_type: "balance" });
    expect(cancelled).toMatchObject({ outcome: "rejected", reason: "order_cancelled" });
    expect(cancelled.message).toMatch(/cancelled/);
    const shipped = await startPay("ord_transit");
    expect(shipped).toMatchObject({ outcome: "rejected", reason: "order_already_paid" });
    expect(shipped.message).toMatch(/shipped/);
    expect(shipped.next_actions).toEqual([
      expect.objectContaining({
        tool: "start_action",
        args: { capability: "track_shipment", entity_id: "ord_transit" },
      }),
      // The refused start ended (nothing to cancel): the user may name another order.
      expect.objectContaining({ tool: "start_action", args: { capability: "pay_order" } }),
    ]);
    expect(shipped).toMatchObject({ status: "refused" });
    expect(await paymentsWhere(w, "order_id=ord_pending")).toHaveLength(0);
    // Set CP: a paid order the shop owes overpaid shipping on says so with the no.
    const owed = await startPay("ord_shipdiff", { payment_type: "balance" });
    expect(owed).toMatchObject({ outcome: "rejected", reason: "order_already_paid" });
    expect(owed.message).toMatch(/nothing to pay; the shop owes the customer \$7\.00 of overpaid shipping/);
    // Review 66: with the way to it.
    expect(owed.next_actions).toContainEqual(
      expect.objectContaining({
        tool: "start_action",
        args: { capability: "after_sales", entity_id: "ord_shipdiff" },
      }),
    );
  });

  it("never reaches another customer's order: admin, support and another tenant get not_found", async () => {
    for (const who of ["adam", "sam", "gina"] as const)
      expect((await startPay("ord_pending", { payment_type: "balance" }, who)).outcome, who).toBe(
        "not_found",
      );
    expect((await startPay("ord_nope")).outcome).toBe("not_found");
  });

  it("a balance below the total stops at PAYMENT before anyone is asked to approve", async () => {
    // Adam (balance 0) with an unpaid order of his own.
    const res = await fetch(`${w.legacy.url}/v1/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}`, "content-type": "application/json" },
      body: JSON.stringify({
        customer_id: "cus_adam",
        items: [{ product_id: "prod_mug", quantity: 1 }],
        address_id: "addr_adam_home",
        shipping_method: "standard",
      }),
    });
    expect(res.status).toBe(201);
    const order = (await res.json()) as { id: string };
    const low = await startPay(order.id, { payment_type: "balance" }, "adam");
    expect(low).toMatchObject({ outcome: "input_required", node: "PAYMENT", approval: null });
    expect(low.validation_errors).toEqual([expect.objectContaining({ code: "insufficient_balance" })]);
    const card = await startPay(order.id, { payment_type: "card" }, "adam");
    expect(card).toMatchObject({ outcome: "applied", status: "awaiting_approval" });
  });

  it("the order view offers pay_order for an unpaid order only, and says why not for the others", async () => {
    const pending = await w.gw.getContext(w.agent.alice, { entity: "order", entity_id: "ord_pending" });
    expect(pending.next_actions[0]).toMatchObject({
      tool: "start_action",
      args: { capability: "pay_order", entity_id: "ord_pending" },
    });
    // What may be done is its next actions; only what may not is said (not_now), with why.
    expect((pending.view as { not_now?: Record<string, string> }).not_now?.pay_order).toBeUndefined();
    const paid = await w.gw.getContext(w.agent.alice, { entity: "order", entity_id: "ord_paid" });
    expect(paid.next_actions.map((n) => n.args?.capability)).not.toContain("pay_order");
    expect(paid.view).toMatchObject({ not_now: { pay_order: "order_already_paid" } });
    // Support sees the order but cannot pay it for the customer.
    const bySupport = await w.gw.getContext(w.agent.sam, { entity: "order", entity_id: "ord_pending" });
    expect(bySupport.next_actions.map((n) => n.args?.capability)).not.toContain("pay_order");
  });
});

describe("pay_order over browse: the order page links its pay form, which ends at a confirmation", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("navigates from the order to the form and submits it; a paid order's form says why not", async () => {
    await w.legacy.reset();
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await alice.callTool({ name, arguments: args });
      return { markdown: text(result), ...(sc(result) as { links?: string[]; outcome?: string }) };
    };
    const order = await call("navigate", { uri: "shop://order/ord_pending" });
    expect(order.links).toContain("shop://order/ord_pending/pay");
    const form = await call("navigate", { uri: "shop://order/ord_pending/pay" });
    expect(form.outcome).toBe("preview");
    expect(form.markdown).toContain("pay_order");
    expect(form.markdown).toContain("payment_type");
    const done = await call("submit", {
      uri: "shop://order/ord_pending/pay",
      fields: { payment_type: "balance" },
    });
    expect(done.markdown).toContain("awaiting_approval");
    expect(done.markdown).toContain("existing order ord_pending");
    const paid = await call("navigate", { uri: "shop://order/ord_paid/pay" });
    expect(paid.markdown).toMatch(/already paid/);
  });
});

describe("capability search tells paying an existing order from buying", () => {
  const index = buildCapabilityIndex([...capabilityRegistry().values()], {
    idPrefixes: recordIdPrefixes(),
    synonyms: searchSynonyms(),
    topics: searchTopics(),
  });
  const first = (query: string) => index.search(query, 3)[0]?.capability;

  it.each([
    "pay for my pending order",
    "pay order ord_pending",
    "settle my unpaid order",
    "支付我的待付款订单",
    "pay for my pending kettle order from my balance",
  ])("%s → pay_order", (query) => expect(first(query)).toBe("pay_order"));

  it.each(["buy two mugs", "two of these mugs, ship to the office, pay from my balance", "帮我结账"])(
    "%s → checkout",
    (query) => expect(first(query)).toBe("checkout"),
  );

  it("checkout says it is not for paying an existing unpaid order", () => {
    const hit = index.search("buy two mugs", 1)[0];
    expect(hit?.when_not_to_use).toMatch(/not for paying an existing unpaid order/i);
    expect(hit?.when_not_to_use).toContain("pay_order");
  });
});
