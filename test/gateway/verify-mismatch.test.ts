import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { actionKeyFor } from "@/server/engine/effect-ledger";
import { describeEachProvider } from "../helpers/database";
import { checkoutToConfirmation, createWorld, grant, idem, type World } from "./gateway-world";

async function legacyPayments(w: World, reference: string) {
  const res = await fetch(`${w.legacy.url}/v1/payments?reference=${encodeURIComponent(reference)}`, {
    headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
  });
  const body = (await res.json()) as { data?: unknown[] } | unknown[];
  return Array.isArray(body) ? body : (body.data ?? []);
}

async function approvedCheckout(w: World) {
  const start = await checkoutToConfirmation(w);
  expect(start.outcome).toBe("applied");
  const id = start.action_id as string;
  expect((await grant(w, id)).outcome).toBe("applied");
  return id;
}

/**
 * The setup of a mismatch: the ledger records an applied charge (as a legacy 200 would have) for
 * a payment the legacy system never received. Written straight into the database; nothing is
 * sent, so the system of record really shows nothing for the action key.
 */
async function ledgerSaysAppliedLegacyNeverSaw(w: World, actionId: string) {
  const row = await w.db.action.findUniqueOrThrow({ where: { id: actionId } });
  const state = row.state as { digest?: string | null };
  const effect = await w.db.effect.create({
    data: {
      actionId,
      actionKey: actionKeyFor(row),
      tenantId: row.tenantId,
      kind: "shop.payment",
      status: "applied",
      externalId: "pay_never_seen",
      request: {
        idempotency_key: idem("ghost"),
        version: row.version,
        digest: state.digest ?? null,
        lease_until: new Date(0).toISOString(),
      },
      attempts: 1,
    },
  });
  await w.db.action.update({ where: { id: actionId }, data: { status: "applied", node: "SUBMITTED" } });
  return effect;
}

async function ledgerOf(w: World, actionId: string) {
  const action = await w.db.action.findUniqueOrThrow({ where: { id: actionId } });
  const effect = await w.db.effect.findUniqueOrThrow({ where: { actionId } });
  const events = await w.db.actionEvent.findMany({ where: { actionId }, orderBy: { id: "asc" } });
  return {
    action: { status: action.status, version: action.version, state: action.state },
    effect: { status: effect.status, attempts: effect.attempts, error: effect.error },
    events: events.map((e) => e.kind),
  };
}

const queued = async (w: World) => (await w.gw.listRecoveryQueue(w.person.sam)).map((q) => q.action_id);

describeEachProvider("a verification mismatch goes to a person (%s)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.clearFaults());

  /** Verify on the ghost charge: the action is queued, nothing is sent. */
  async function mismatched() {
    const id = await approvedCheckout(w);
    const effect = await ledgerSaysAppliedLegacyNeverSaw(w, id);
    expect(await queued(w)).not.toContain(id); // applied, not yet verified: the ledger's
    const verified = await w.gw.verifyAction(w.agent.alice, { action_id: id });
    expect(verified).toMatchObject({
      outcome: "unknown",
      reason: "verification_mismatch",
      retryable: false,
      status: "unknown",
      effect: { status: "applied", action_key: effect.actionKey },
      verification: { found: false, status: "not_paid" },
    });
    expect(verified.message).toContain("recovery queue");
    expect(verified.next_actions.map((n) => n.tool)).toEqual(["verify_action"]);
    expect((await ledgerOf(w, id)).events).toContain("verification_mismatch");
    expect(await legacyPayments(w, effect.actionKey)).toHaveLength(0);
    return { id, effect };
  }

  it("is listed; recover refuses to re-send it; resolved not_applied, confirm charges once with the original key", async () => {
    const { id, effect } = await mismatched();
    const queue = await w.gw.listRecoveryQueue(w.person.sam);
    const item = queue.find((q) => q.action_id === id);
    expect(item).toMatchObject({ effect_status: "applied", action_key: effect.actionKey });
    expect(item?.queued_reason).toMatch(/verification mismatch/);

    // Neither the agent nor support re-sends what the ledger recorded as applied.
    for (const ctx of [w.agent.alice, w.person.sam]) {
      const out = await w.gw.recoverAction(ctx, { action_id: id });
      expect(out).toMatchObject({ outcome: "rejected", reason: "not_in_next_actions" });
      expect(out.message).toContain("recovery queue");
    }
    expect(await legacyPayments(w, effect.actionKey)).toHaveLength(0);

    // Verifying again changes nothing but the check's time: still queued, still applied in the ledger.
    const again = await w.gw.verifyAction(w.agent.alice, { action_id: id });
    expect(again).toMatchObject({ reason: "verification_mismatch", status: "unknown" });
    expect(await queued(w)).toContain(id);

    // A member cannot resolve it.
    expect(
      await w.gw.resolveRecovery(w.person.alice, { action_id: id, resolution: "not_applied", note: "x" }),
    ).toMatchObject({ outcome: "rejected", reason: "support_required" });

    const resolved = await w.gw.resolveRecovery(w.person.sam, {
      action_id: id,
      resolution: "not_applied",
      note: "no payment under the action key at the shop",
    });
    expect(resolved).toMatchObject({ outcome: "applied" });
    const after = await ledgerOf(w, id);
    expect(after).toMatchObject({ action: { status: "failed" }, effect: { status: "failed" } });
    expect(after.events).toContain("recovery_resolved");
    expect(await queued(w)).not.toContain(id);

    // Nothing was applied: the agent's confirm re-checks the approval and sends the ORIGINAL key.
    const view = await w.gw.verifyAction(w.agent.alice, { action_id: id });
    expect(view.next_actions.map((n) => n.tool)).toEqual(["confirm_action", "verify_action"]);
    const confirmed = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    expect(confirmed).toMatchObject({
      outcome: "applied",
      effect: { status: "applied", action_key: effect.actionKey, attempts: 2 },
    });
    expect(await legacyPayments(w, effect.actionKey)).toHaveLength(1);
    expect(await w.gw.verifyAction(w.agent.alice, { action_id: id })).toMatchObject({
      outcome: "applied",
      status: "completed",
    });
  }, 60_000);

  it("resolved applied: the effect stays applied and the action completes, out of the queue", async () => {
    const { id, effect } = await mismatched();
    const resolved = await w.gw.resolveRecovery(w.person.sam, {
      action_id: id,
      resolution: "applied",
      note: "paid by bank transfer, booked by hand",
    });
    expect(resolved).toMatchObject({ outcome: "applied" });
    const after = await ledgerOf(w, id);
    expect(after).toMatchObject({ action: { status: "completed" }, effect: { status: "applied" } });
    expect((after.action.state as { recovery: unknown }).recovery).toBeNull();
    expect(after.events).toContain("recovery_resolved");
    expect(await queued(w)).not.toContain(id);
    // Settled: a second resolution is refused and changes nothing.
    const twice = await w.gw.resolveRecovery(w.person.sam, {
      action_id: id,
      resolution: "not_applied",
      note: "changed my mind",
    });
    expect(twice).toMatchObject({ outcome: "conflict", reason: "not_in_recovery_queue" });
    expect(await ledgerOf(w, id)).toEqual(after);
    expect(await legacyPayments(w, effect.actionKey)).toHaveLength(0);
  });

  it("an ordinary applied, completed charge cannot be flipped, even when a later check finds nothing", async () => {
    const id = await approvedCheckout(w);
    const confirmed = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    // Verified at once by the confirm; a later verify_action says the same.
    expect(confirmed).toMatchObject({ outcome: "applied", status: "completed" });
    expect(await w.gw.verifyAction(w.agent.alice, { action_id: id })).toMatchObject({ status: "completed" });
    const key = (await w.db.effect.findUniqueOrThrow({ where: { actionId: id } })).actionKey;
    for (const resolution of ["not_applied", "applied"] as const) {
      const out = await w.gw.resolveRecovery(w.person.sam, { action_id: id, resolution, note: "checked" });
      expect(out).toMatchObject({ outcome: "conflict", reason: "not_in_recovery_queue" });
    }
    // The system of record "loses" it (the ledger's key no longer matches any payment): a later
    // verify says so, but a verified, completed action is not reopened or queued.
    await w.db.effect.update({ where: { actionId: id }, data: { actionKey: `${key}_elsewhere` } });
    const before = await ledgerOf(w, id);
    const late = await w.gw.verifyAction(w.agent.alice, { action_id: id });
    expect(late).toMatchObject({
      outcome: "unknown",
      reason: "verification_mismatch",
      status: "completed",
      next_actions: [],
    });
    expect(await ledgerOf(w, id)).toEqual(before);
    expect(await queued(w)).not.toContain(id);
    const out = await w.gw.resolveRecovery(w.person.sam, {
      action_id: id,
      resolution: "not_applied",
      note: "checked",
    });
    expect(out).toMatchObject({ outcome: "conflict", reason: "not_in_recovery_queue" });
    expect(await ledgerOf(w, id)).toEqual(before);
    expect(await legacyPayments(w, key)).toHaveLength(1);
  });
});
