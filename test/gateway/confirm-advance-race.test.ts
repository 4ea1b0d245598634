import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { describeEachProvider } from "../helpers/database";
import { checkoutToConfirmation, createWorld, grant, idem, type World } from "./gateway-world";

/**
 * Found by an outside attack: an advance_action that landed while a confirm was between its
 * claim and its send changed the action under the payment — the approval that was used ended up
 * voided and a new, never-executed amount waited for the person. A claimed effect freezes the
 * action; an advance that wins the race makes the confirm give its claim back.
 */
describeEachProvider("a confirm and an advance racing (%s)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
  });
  afterAll(async () => w?.close());
  beforeEach(async () => {
    await w.legacy.reset();
    await w.legacy.clearFaults();
  });

  async function untilClaimed(actionId: string) {
    for (;;) {
      const effect = await w.db.effect.findUnique({ where: { actionId } });
      if (effect?.status === "pending") return effect;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it("an advance while the confirm holds the claim is refused; the approved version is what is paid and recorded", async () => {
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    expect(await grant(w, id)).toMatchObject({ outcome: "applied" });
    // Hold confirm's re-validation between the claim and the send.
    await w.legacy.injectFault({
      match: "GET /v1/customers/*/payment-methods",
      mode: "latency",
      count: 1,
      latency_ms: 3000,
    });
    const confirming = w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    await untilClaimed(id);
    const advanced = await w.gw.advanceAction(w.agent.alice, {
      action_id: id,
      version: 1,
      patch: { items: [{ product_id: "prod_mug", quantity: 5 }] },
    });
    expect(advanced).toMatchObject({ outcome: "conflict", reason: "confirm_in_progress", version: 1 });
    const confirmed = await confirming;
    expect(confirmed).toMatchObject({ outcome: "applied", version: 1 });
    const approvals = await w.db.approval.findMany({ where: { actionId: id }, orderBy: { version: "asc" } });
    expect(approvals.map((a) => [a.version, a.status])).toEqual([[1, "approved"]]);
    expect((await w.db.action.findUniqueOrThrow({ where: { id } })).version).toBe(1);
  });

  it("an advance that lands first makes the confirm give its claim back: nothing is sent", async () => {
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    expect(await grant(w, id)).toMatchObject({ outcome: "applied" });
    await w.legacy.injectFault({
      match: "GET /v1/customers/*/payment-methods",
      mode: "latency",
      count: 1,
      latency_ms: 3000,
    });
    const confirming = w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    const claim = await untilClaimed(id);
    // The advance's own writes, as if its conditional update had run just before the claim.
    await w.db.action.update({ where: { id }, data: { version: 2 } });
    const confirmed = await confirming;
    expect(confirmed).toMatchObject({ outcome: "conflict", reason: "stale_version", version: 2 });
    expect(await w.db.effect.findUnique({ where: { id: claim.id } })).toBeNull();
    const payments = await fetch(
      `${w.legacy.url}/v1/payments?reference=${encodeURIComponent(claim.actionKey)}`,
      {
        headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
      },
    );
    expect(payments.status).toBe(200);
    const body = (await payments.json()) as { data?: unknown[] } | unknown[];
    expect(Array.isArray(body) ? body : body.data).toEqual([]);
  });
});
