import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { toEffectResult } from "@/server/connectors/sdk/effect-result";
import { SystemUnavailableError } from "@/server/connectors/sdk/system-errors";
import { setSecret } from "@/server/gateway/vault";
import { describeEachProvider } from "../helpers/database";
import type { LegacyFault } from "../helpers/legacy-server";
import { checkoutToConfirmation, createWorld, grant, idem, type World } from "./gateway-world";

/**
 * After a write has been sent, nothing that goes wrong while confirming its answer may be
 * recorded as "nothing was applied": a `failed` effect is what confirm_action re-claims and
 * re-sends. Checkout reads the order back (GET /v1/orders/{id}) after the payment POST; these
 * tests make that read fail at the real legacy service.
 */

async function legacyPayments(w: World, reference: string) {
  const res = await fetch(`${w.legacy.url}/v1/payments?reference=${encodeURIComponent(reference)}`, {
    headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
  });
  const body = (await res.json()) as { data?: Array<{ status: string }> };
  return body.data ?? [];
}

async function approvedCheckout(w: World) {
  const start = await checkoutToConfirmation(w);
  expect(start.outcome).toBe("applied");
  const id = start.action_id as string;
  expect((await grant(w, id)).outcome).toBe("applied");
  return id;
}

const effectOf = (w: World, actionId: string) => w.db.effect.findUnique({ where: { actionId } });

/** Polls (no deadline asserted) until confirm has claimed the effect, i.e. the window is open. */
async function untilClaimed(w: World, actionId: string, status: string) {
  for (;;) {
    const effect = await effectOf(w, actionId);
    if (effect?.status === "pending" && (status === "fresh" || effect.attempts > 1)) return effect;
    await new Promise((r) => setTimeout(r, 10));
  }
}

// The legacy service has no fault that answers 500; a 500 on a read is the same
// SystemUnavailableError in the client as these (sdk/http-client.ts `get`).
const readBackFaults: Array<[string, Omit<LegacyFault, "match">]> = [
  ["answers 503 (error)", { mode: "error", error_rate: 1 }],
  ["answers 503 (down)", { mode: "down" }],
  ["drops the connection", { mode: "commit_then_timeout", latency_ms: 0 }],
];

// Every effect's read-back (checkout, address change, after-sales, the helpdesk PATCHes) runs in
// toEffectResult's confirm callback; the helpdesk ones cannot be faulted at the legacy service
// alone, because confirm's re-validation reads the same ticket URL before the write.
describe("toEffectResult", () => {
  const ok = { kind: "ok" as const, status: 200, body: { id: "x" }, replayed: false };
  it.each([
    ["a read-back that stays down", new SystemUnavailableError("legacy service unavailable (503)")],
    ["any other error while confirming", new TypeError("cannot read properties of null")],
  ])("an answered write whose check throws (%s) is unknown, never unavailable", async (_name, err) => {
    const result = await toEffectResult(ok, async () => {
      throw err;
    });
    expect(result).toMatchObject({ status: "unknown" });
    expect(result.status === "unknown" && result.message).toMatch(/sent.*could not be confirmed/);
  });
});

describeEachProvider("effect read-back after the write (%s)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.clearFaults());

  it.each(readBackFaults)(
    "the payment went through but the order read-back %s: unknown, never failed; verify settles it; one payment",
    async (_name, fault) => {
      const id = await approvedCheckout(w);
      // Only the read-back reads one order by id; confirm's re-validation does not.
      await w.legacy.injectFault({ match: "GET /v1/orders/*", ...fault });
      const first = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
      expect(first).toMatchObject({
        outcome: "unknown",
        reason: "outcome_unknown",
        status: "unknown",
        retryable: false,
        effect: { status: "unknown" },
      });
      expect(first.message).toMatch(/sent/);
      expect(first.message).toMatch(/could not be confirmed/);
      expect(first.message).not.toMatch(/nothing was applied/);
      expect(first.next_actions.map((n) => n.tool)).toContain("verify_action");
      const effect = await effectOf(w, id);
      expect(effect?.status).toBe("unknown");
      const key = effect?.actionKey as string;
      const paid = await legacyPayments(w, key);
      expect(paid).toHaveLength(1);
      expect(paid[0]?.status).toBe("succeeded");

      // A blind second confirm (another key) replays; it never claims or charges again.
      const again = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
      expect(again).toMatchObject({ outcome: "unknown", reason: "already_confirmed" });
      expect((await effectOf(w, id))?.attempts).toBe(1);
      expect(await legacyPayments(w, key)).toHaveLength(1);

      await w.legacy.clearFaults();
      const verified = await w.gw.verifyAction(w.agent.alice, { action_id: id });
      expect(verified).toMatchObject({
        outcome: "applied",
        status: "completed",
        verification: { status: "paid" },
        effect: { status: "applied" },
      });
      const after = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
      expect(after).toMatchObject({ outcome: "applied", reason: "already_confirmed" });
      expect(await legacyPayments(w, key)).toHaveLength(1);
    },
  );

  // The adapter is resolved again when the effect is sent, after the claim. A latency fault on
  // one of confirm's re-validation reads holds the confirm between the claim and the send long
  // enough to switch the connector off (or remove its key) in that window.
  const holdRevalidation = { match: "GET /v1/customers/*/payment-methods", mode: "latency" as const };

  it("the connector is disabled after the claim: temporarily_unavailable, the fresh claim is released, nothing sent", async () => {
    const id = await approvedCheckout(w);
    await w.legacy.injectFault({ ...holdRevalidation, count: 1, latency_ms: 5000 });
    const where = { tenantId: "acme", connector: "shop" };
    try {
      const confirming = w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
      const claimed = await untilClaimed(w, id, "fresh");
      await w.db.connectorConfig.updateMany({ where, data: { enabled: false } });
      const out = await confirming;
      expect(out).toMatchObject({ outcome: "temporarily_unavailable", retryable: true });
      expect(out.message).toMatch(/shop connector is disabled/);
      expect(await effectOf(w, id)).toBeNull();
      expect(await legacyPayments(w, claimed.actionKey)).toHaveLength(0);
      const ctx = await w.gw.getContext(w.agent.alice, { action_id: id });
      expect(ctx.status).toBe("approved");

      await w.db.connectorConfig.updateMany({ where, data: { enabled: true } });
      const retried = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
      expect(retried).toMatchObject({ outcome: "applied", effect: { status: "applied", attempts: 1 } });
      expect(await legacyPayments(w, claimed.actionKey)).toHaveLength(1);
    } finally {
      await w.db.connectorConfig.updateMany({ where, data: { enabled: true } });
    }
  });

  it("the key is removed after a re-claim: temporarily_unavailable, the claim goes back to failed, nothing sent", async () => {
    const id = await approvedCheckout(w);
    // First confirm: the payment endpoint stays down, so the effect is `failed` (nothing applied).
    await w.legacy.injectFault({ match: "POST /v1/payments", mode: "down" });
    const down = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    expect(down).toMatchObject({ outcome: "temporarily_unavailable", effect: { status: "failed" } });
    await w.legacy.clearFaults();
    await w.legacy.injectFault({ ...holdRevalidation, count: 1, latency_ms: 5000 });
    const ref = { tenantId: "acme", connector: "shop", name: "api_key" };
    try {
      const confirming = w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
      const claimed = await untilClaimed(w, id, "reclaimed");
      // The key is gone from the vault mid-flight (the row removed, as a settings change clears it).
      expect((await w.db.secret.deleteMany({ where: ref })).count).toBe(1);
      const out = await confirming;
      expect(out).toMatchObject({ outcome: "temporarily_unavailable", retryable: true });
      expect(out.message).toMatch(/API key is not set/);
      const effect = await effectOf(w, id);
      expect(effect).toMatchObject({ status: "failed", attempts: 2 });
      expect(await legacyPayments(w, claimed.actionKey)).toHaveLength(0);

      await setSecret(w.db, { ...ref, value: w.legacy.apiKeys.acme });
      const retried = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
      expect(retried).toMatchObject({ outcome: "applied", effect: { status: "applied", attempts: 3 } });
      expect(await legacyPayments(w, claimed.actionKey)).toHaveLength(1);
    } finally {
      await setSecret(w.db, { ...ref, value: w.legacy.apiKeys.acme });
    }
  });
});
