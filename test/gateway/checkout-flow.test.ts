import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachProvider } from "../helpers/database";
import { checkoutToConfirmation, createWorld, grant, idem, type World } from "./gateway-world";

/** Payments the legacy system holds for one action key (the `reference` Signpost sends). */
async function legacyPayments(w: World, reference: string) {
  const res = await fetch(`${w.legacy.url}/v1/payments?reference=${encodeURIComponent(reference)}`, {
    headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
  });
  const body = (await res.json()) as { data?: unknown[] } | unknown[];
  return Array.isArray(body) ? body : (body.data ?? []);
}

async function balance(w: World) {
  const res = await fetch(`${w.legacy.url}/v1/customers/cus_alice`, {
    headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
  });
  return ((await res.json()) as { balance: number }).balance;
}

describeEachProvider("checkout through the gateway (%s)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
  });
  afterAll(async () => w?.close());

  it("goes from a full patch to the confirmation node in one start call", async () => {
    const out = await checkoutToConfirmation(w);
    expect(out).toMatchObject({
      outcome: "applied",
      node: "CONFIRM_ORDER",
      requires_confirmation: true,
      status: "awaiting_approval",
      version: 1,
      missing: [],
      pending: [],
      validation_errors: [],
      applied: ["items", "address_id", "shipping_method", "payment_type"],
      summary: {
        amount: 4100,
        // What the person decides, in one sentence's parts, and the payment in words.
        decision: { verb: "Pay", amount: 4100, from: "Store credit" },
        payment_method: { type: "balance", label: "Store credit" },
        address: expect.stringContaining("Office"),
        // No coupon: the sum has no discount term.
        sum: { terms: [{ label: "items" }, { label: "shipping" }] },
      },
    });
    // Downstream information that only exists once the total is known.
    expect((out.options as { available_coupons: unknown[] }).available_coupons.length).toBeGreaterThan(0);
    expect(out.inputs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "coupon_code", node: "COUPON", required: false }),
      ]),
    );
    expect(out.next_actions).toEqual([
      expect.objectContaining({ tool: "advance_action" }),
      expect.objectContaining({ tool: "confirm_action", requires_user_approval: true }),
    ]);
    // Internal handler names never leak.
    expect(JSON.stringify(out)).not.toMatch(/handler|resolve\(|execute/);
  });

  it("approval → confirm (verified at once) makes exactly one payment", async () => {
    const before = await balance(w);
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    const early = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    expect(early).toMatchObject({ outcome: "rejected", reason: "approval_pending" });
    expect((await grant(w, id)).outcome).toBe("applied");
    const key = idem("confirm");
    const confirmed = await w.gw.confirmAction(w.agent.alice, {
      action_id: id,
      version: 1,
      idempotency_key: key,
    });
    // The confirm asks the system of record at once: one call, verified, nothing left to do.
    expect(confirmed).toMatchObject({
      outcome: "applied",
      status: "completed",
      node: "VERIFIED",
      effect: { status: "applied" },
      verification: { status: "paid", amount: 4100 },
      next_actions: [],
    });
    expect(confirmed.message).toMatch(/verified at the system of record/);
    expect(confirmed.external_id).toMatch(/\S/);
    const verified = await w.gw.verifyAction(w.agent.alice, { action_id: id });
    expect(verified).toMatchObject({
      entity: { type: "Order", id: expect.stringMatching(/\S/) },
      outcome: "applied",
      status: "completed",
      verification: { status: "paid", amount: 4100 },
      next_actions: [],
    });
    const actionKey = (confirmed.effect as { action_key: string }).action_key;
    expect(await legacyPayments(w, actionKey)).toHaveLength(1);
    expect(before - (await balance(w))).toBe(4100);
    // Replays: same key → first outcome; another key → the existing outcome; never a second charge.
    const replay = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: key });
    expect(replay).toMatchObject({
      outcome: "applied",
      reason: "idempotent_replay",
      external_id: confirmed.external_id,
    });
    const other = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem("other") });
    expect(other).toMatchObject({
      outcome: "applied",
      reason: "already_confirmed",
      external_id: confirmed.external_id,
    });
    expect(await legacyPayments(w, actionKey)).toHaveLength(1);
    expect(before - (await balance(w))).toBe(4100);
    const effects = await w.db.effect.count({ where: { actionId: id } });
    expect(effects).toBe(1);
  });

  it("advances node by node, holds downstream fields pending, and recomputes coupons", async () => {
    const start = await w.gw.startAction(w.agent.alice, { capability: "checkout" });
    expect(start).toMatchObject({ outcome: "input_required", node: "ITEMS", missing: ["items"] });
    const id = start.action_id as string;
    // Sold out: stops at ITEMS (an advance keeps the action open), the address waits in pending;
    // the product is what the user chooses again.
    const bad = await w.gw.advanceAction(w.agent.alice, {
      action_id: id,
      version: 1,
      patch: { items: [{ product_id: "prod_tee_xl", quantity: 1 }], address_id: "Home" },
    });
    expect(bad).toMatchObject({
      outcome: "input_required",
      node: "ITEMS",
      pending: ["address_id"],
      version: 2,
    });
    expect(bad.validation_errors).toEqual([
      expect.objectContaining({
        field: "items.0.product_id",
        code: "insufficient_stock",
        choice_closed: true,
      }),
    ]);
    expect(bad.next_actions.map((n) => n.tool)).toEqual(["advance_action"]);
    const shipping = await w.gw.advanceAction(w.agent.alice, {
      action_id: id,
      version: 2,
      patch: { items: [{ product_id: "prod_lamp", quantity: 1 }], payment_type: "card" },
    });
    // The shipping method's price is the user's choice: asked, not defaulted.
    expect(shipping).toMatchObject({
      outcome: "input_required",
      node: "SHIPPING",
      missing: ["shipping_method"],
    });
    const ok = await w.gw.advanceAction(w.agent.alice, {
      action_id: id,
      version: 3,
      patch: { shipping_method: "standard" },
    });
    expect(ok).toMatchObject({ outcome: "applied", node: "CONFIRM_ORDER", version: 4 });
    const coupons = (
      shipping.options as { available_coupons: Array<{ code: string }> }
    ).available_coupons.map((c) => c.code);
    expect(coupons).toContain("SAVE30");
    const withCoupon = await w.gw.advanceAction(w.agent.alice, {
      action_id: id,
      version: 4,
      patch: { coupon_code: "SAVE30" },
    });
    expect(withCoupon).toMatchObject({
      outcome: "applied",
      node: "CONFIRM_ORDER",
      summary: {
        sum: {
          terms: [{ label: "items" }, { label: "shipping" }, { label: "coupon SAVE30", amount: -3000 }],
        },
      },
    });
    expect((withCoupon.summary as { amount: number }).amount).toBe(
      (ok.summary as { amount: number }).amount - 3000,
    );
  });

  it("a change after approval voids it; a stale version is a conflict carrying the current one", async () => {
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    await grant(w, id);
    const changed = await w.gw.advanceAction(w.agent.alice, {
      action_id: id,
      version: 1,
      patch: { shipping_method: "express" },
    });
    expect(changed).toMatchObject({
      outcome: "applied",
      version: 2,
      approval: { status: "pending", version: 2 },
    });
    const old = await w.db.approval.findUnique({ where: { actionId_version: { actionId: id, version: 1 } } });
    expect(old?.status).toBe("voided");
    const stale = await w.gw.advanceAction(w.agent.alice, {
      action_id: id,
      version: 1,
      patch: { shipping_method: "standard" },
    });
    expect(stale).toMatchObject({
      outcome: "conflict",
      reason: "stale_version",
      version: 2,
      retryable: true,
    });
    const confirm = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    expect(confirm).toMatchObject({ outcome: "rejected", reason: "approval_pending" });
    const staleDecision = await w.gw.decideApproval(w.person.alice, {
      action_id: id,
      version: 1,
      decision: "approve",
    });
    expect(staleDecision).toMatchObject({ outcome: "conflict", reason: "stale_version" });
  });

  it("dry_run previews without creating or charging anything", async () => {
    const before = await w.db.action.count();
    const preview = await w.gw.startAction(w.agent.alice, {
      capability: "checkout",
      dry_run: true,
      patch: {
        items: [{ product_id: "prod_mug", quantity: 1 }],
        address_id: "Office",
        shipping_method: "standard",
        payment_type: "card",
      },
    });
    expect(preview).toMatchObject({ outcome: "preview", node: "CONFIRM_ORDER", requires_confirmation: true });
    expect(await w.db.action.count()).toBe(before);
    const start = await checkoutToConfirmation(w);
    await grant(w, start.action_id as string);
    const advDry = await w.gw.advanceAction(w.agent.alice, {
      action_id: start.action_id,
      version: 1,
      patch: { shipping_method: "express" },
      dry_run: true,
    });
    expect(advDry).toMatchObject({
      outcome: "preview",
      summary: { shipping_method: { value: "express", label: "Express" } },
    });
    expect((await w.gw.getContext(w.agent.alice, { action_id: start.action_id })).version).toBe(1);
    const dry = await w.gw.confirmAction(w.agent.alice, {
      action_id: start.action_id,
      idempotency_key: idem(),
      dry_run: true,
    });
    expect(dry.outcome).toBe("preview");
    expect(await w.db.effect.count({ where: { actionId: start.action_id as string } })).toBe(0);
  });

  it("rejects calls not on next_actions with the reason and the list", async () => {
    const start = await w.gw.startAction(w.agent.alice, { capability: "checkout" });
    const confirm = await w.gw.confirmAction(w.agent.alice, {
      action_id: start.action_id,
      idempotency_key: idem(),
    });
    expect(confirm).toMatchObject({ outcome: "rejected", reason: "not_in_next_actions" });
    expect(confirm.next_actions.map((n) => n.tool)).toEqual(["advance_action"]);
    const verify = await w.gw.verifyAction(w.agent.alice, { action_id: start.action_id });
    expect(verify).toMatchObject({ outcome: "rejected", reason: "not_in_next_actions" });
  });

  it("get_context resumes an action with the JSON Schema of its patch", async () => {
    const start = await w.gw.startAction(w.agent.alice, {
      capability: "checkout",
      patch: { items: [{ product_id: "prod_mug", quantity: 1 }] },
    });
    const ctx = await w.gw.getContext(w.agent.alice, { action_id: start.action_id });
    expect(ctx).toMatchObject({ outcome: "applied", node: "ADDRESS", missing: ["address_id"] });
    const schema = ctx.patch_schema as { properties: Record<string, unknown>; additionalProperties: boolean };
    expect(Object.keys(schema.properties)).toEqual([
      "items",
      "from_cart",
      "address_id",
      "shipping_method",
      "coupon_code",
      "payment_type",
    ]);
    expect(schema.additionalProperties).toBe(false);
  });
});
