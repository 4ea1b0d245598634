import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createLegacyServer } from "@/server/legacy/create-legacy-server";
import { requestFingerprint } from "@/server/legacy/idempotency/idempotency-store";
import { type RunningLegacy, startLegacy } from "@/test/helpers/legacy-server";
import { call } from "./legacy-http";

let legacy: RunningLegacy;
beforeAll(async () => {
  legacy = await startLegacy();
});
afterAll(async () => {
  await legacy.stop();
});
beforeEach(async () => {
  await legacy.reset();
});

const payPending = async (key: string, overrides: Record<string, unknown> = {}) => {
  const total = (await call(legacy, "GET", "/v1/orders/ord_pending")).body.total;
  return call(legacy, "POST", "/v1/payments", {
    idempotencyKey: key,
    body: {
      order_id: "ord_pending",
      payment_method_id: "pm_alice_balance",
      amount: total,
      reference: key,
      ...overrides,
    },
  });
};

const paymentsOf = async (orderId: string) =>
  (await call(legacy, "GET", `/v1/payments?order_id=${orderId}`)).body.data;
const balance = async () => (await call(legacy, "GET", "/v1/customers/cus_alice")).body.balance;

describe("Idempotency-Key (Stripe semantics)", () => {
  test("the same key replays the first response: same body, one payment, one debit", async () => {
    const before = await balance();
    const first = await payPending("key-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const second = await payPending("key-1");
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await paymentsOf("ord_pending")).toHaveLength(1);
    expect(await balance()).toBe(before - first.body.amount);
  });

  test("the same key with different parameters is 422 idempotency_key_reused and changes nothing", async () => {
    await payPending("key-2");
    const changed = await payPending("key-2", { payment_method_id: "pm_alice_card" });
    expect(changed.status).toBe(422);
    expect(changed.body.error.code).toBe("idempotency_key_reused");
    const otherEndpoint = await call(legacy, "POST", "/v1/orders/ord_paid/refunds", {
      idempotencyKey: "key-2",
      body: { amount: 100, reason: "x" },
    });
    expect(otherEndpoint.status).toBe(422);
    expect(await paymentsOf("ord_pending")).toHaveLength(1);
  });

  test("keys are per tenant", async () => {
    await payPending("shared-key");
    const globex = await call(legacy, "POST", "/v1/payments", {
      tenant: "globex",
      idempotencyKey: "shared-key",
      body: { order_id: "ord_pending", payment_method_id: "pm_alice_balance", amount: 1 },
    });
    expect(globex.status).toBe(404);
    expect(globex.headers.get("idempotent-replayed")).toBeNull();
  });

  test("concurrent requests with one key have exactly one effect; the others are 409 in use or replays", async () => {
    // Latency holds the first request after it claimed the key, so the others arrive while it runs.
    await legacy.injectFault({ match: "POST /v1/payments", mode: "latency", latency_ms: 300, count: 1 });
    const before = await balance();
    const results = await Promise.all(Array.from({ length: 6 }, () => payPending("key-race")));
    // One ran; each other one either arrived while it ran (409 in use) or, on a loaded machine,
    // after it finished (the stored answer replayed): never a second effect.
    const replayed = (r: (typeof results)[number]) => r.headers.get("idempotent-replayed") === "true";
    const ran = results.filter((r) => r.status === 201 && !replayed(r));
    expect(ran).toHaveLength(1);
    const winner = ran[0];
    for (const r of results.filter((x) => x !== winner)) {
      if (r.status === 409) expect(r.body.error.code).toBe("idempotency_key_in_use");
      else expect([r.status, replayed(r), r.body]).toEqual([201, true, winner?.body]);
    }
    expect(await paymentsOf("ord_pending")).toHaveLength(1);
    expect(await balance()).toBe(before - (winner?.body.amount ?? 0));
    const later = await payPending("key-race");
    expect(later.headers.get("idempotent-replayed")).toBe("true");
    expect(later.body).toEqual(winner?.body);
  });

  test("concurrent requests with different keys still pay an order only once", async () => {
    const results = await Promise.all(["a", "b", "c", "d"].map((k) => payPending(`key-${k}`)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).map((r) => r.body.error.code)).toEqual(
      Array(3).fill("order_not_payable"),
    );
    expect(await paymentsOf("ord_pending")).toHaveLength(1);
  });

  test("a business error is stored and replayed; a validation error is not", async () => {
    const refused = await call(legacy, "POST", "/v1/orders/ord_transit/refunds", {
      idempotencyKey: "key-err",
      body: { amount: 100, reason: "x" },
    });
    expect(refused.body.error.code).toBe("order_already_shipped");
    const replay = await call(legacy, "POST", "/v1/orders/ord_transit/refunds", {
      idempotencyKey: "key-err",
      body: { amount: 100, reason: "x" },
    });
    expect(replay.status).toBe(409);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const invalid = await call(legacy, "POST", "/v1/payments", {
      idempotencyKey: "key-400",
      body: { order_id: 1 },
    });
    expect(invalid.status).toBe(400);
    const valid = await payPending("key-400");
    expect(valid.status).toBe(201);
    expect(valid.headers.get("idempotent-replayed")).toBeNull();
  });

  test("PATCH and PUT accept keys too", async () => {
    const patch = (priority: string) =>
      call(legacy, "PATCH", "/v1/tickets/tkt_1", { idempotencyKey: "key-patch", body: { priority } });
    expect((await patch("urgent")).status).toBe(200);
    expect((await patch("urgent")).headers.get("idempotent-replayed")).toBe("true");
    expect((await patch("low")).status).toBe(422);
  });

  test("two server instances on one store: the key claim holds across them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "signpost-legacy-shared-"));
    const apiKeys = { acme: "acme-shared-key", globex: "globex-shared-key" };
    const dbPath = join(dir, "legacy.sqlite");
    const a = await createLegacyServer({ dbPath, apiKeys, adminKey: "admin-a" });
    const b = await createLegacyServer({ dbPath, apiKeys, adminKey: "admin-b" });
    try {
      await fetch(`${a.url}/admin/faults`, {
        method: "POST",
        headers: { "x-admin-key": "admin-a", "content-type": "application/json" },
        body: JSON.stringify({ match: "POST /v1/payments", mode: "latency", latency_ms: 3000 }),
      });
      const auth = { authorization: "Bearer acme-shared-key" };
      const total = (await (await fetch(`${a.url}/v1/orders/ord_pending`, { headers: auth })).json()).total;
      const pay = (url: string) =>
        fetch(`${url}/v1/payments`, {
          method: "POST",
          headers: {
            authorization: "Bearer acme-shared-key",
            "content-type": "application/json",
            "idempotency-key": "k-shared",
          },
          body: JSON.stringify({
            order_id: "ord_pending",
            payment_method_id: "pm_alice_card",
            amount: total,
          }),
        });
      // The key is claimed before the injected latency: the second call lands well inside the
      // first's 3 s, with room for a slow machine on both sides.
      const first = pay(a.url);
      await new Promise((r) => setTimeout(r, 500));
      const second = await pay(b.url);
      expect(second.status).toBe(409);
      expect((await second.json()).error.code).toBe("idempotency_key_in_use");
      const firstRes = await first;
      expect(firstRes.status).toBe(201);
      const payment = await firstRes.json();
      const replay = await pay(b.url);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(await replay.json()).toEqual(payment);
      const listed = await (
        await fetch(`${b.url}/v1/payments?order_id=ord_pending`, { headers: auth })
      ).json();
      expect(listed.total).toBe(1);
    } finally {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a key left in flight by a crashed request blocks for 60 s, then can be claimed again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "signpost-legacy-crash-"));
    const dbPath = join(dir, "legacy.sqlite");
    const server = await createLegacyServer({
      dbPath,
      apiKeys: { acme: "acme-crash-key", globex: "globex-crash-key" },
      adminKey: "x".repeat(8),
    });
    const db = new Database(dbPath);
    try {
      const body = { author: "tm_bella", body: "note", internal: false };
      const fingerprint = requestFingerprint("POST", "/v1/tickets/tkt_1/comments", { ...body });
      const leave = db.prepare(
        "INSERT OR REPLACE INTO idempotency_keys (tenant_id, key, fingerprint, state, locked_at, created_at) VALUES ('acme', 'k-crash', ?, 'in_flight', ?, ?)",
      );
      const post = () =>
        fetch(`${server.url}/v1/tickets/tkt_1/comments`, {
          method: "POST",
          headers: {
            authorization: "Bearer acme-crash-key",
            "content-type": "application/json",
            "idempotency-key": "k-crash",
          },
          body: JSON.stringify(body),
        });
      const recent = new Date(Date.now() - 10_000).toISOString();
      leave.run(fingerprint, recent, recent);
      expect((await post()).status).toBe(409);
      const old = new Date(Date.now() - 61_000).toISOString();
      leave.run(fingerprint, old, old);
      const retried = await post();
      expect(retried.status).toBe(201);
      expect(retried.headers.get("idempotent-replayed")).toBeNull();
    } finally {
      db.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a key expires 24 h after its first use: then it is new again (even with other parameters), and expired rows are pruned", async () => {
    const dir = mkdtempSync(join(tmpdir(), "signpost-legacy-expiry-"));
    const dbPath = join(dir, "legacy.sqlite");
    let clock = new Date("2026-11-30T12:00:00.000Z");
    const server = await createLegacyServer({
      dbPath,
      apiKeys: { acme: "acme-expiry-key", globex: "globex-expiry-key" },
      adminKey: "x".repeat(8),
      now: () => clock,
    });
    const db = new Database(dbPath);
    const hour = 60 * 60 * 1000;
    try {
      const comment = async (key: string, text: string) => {
        const res = await fetch(`${server.url}/v1/tickets/tkt_1/comments`, {
          method: "POST",
          headers: {
            authorization: "Bearer acme-expiry-key",
            "content-type": "application/json",
            "idempotency-key": key,
          },
          body: JSON.stringify({ author: "tm_bella", body: text, internal: false }),
        });
        return {
          status: res.status,
          replayed: res.headers.get("idempotent-replayed"),
          body: await res.json(),
        };
      };
      const first = await comment("k-day", "first");
      expect(first.status).toBe(201);
      await comment("k-other", "other");

      clock = new Date(clock.getTime() + 24 * hour - 1000);
      const replay = await comment("k-day", "first");
      expect(replay).toMatchObject({ status: 201, replayed: "true" });
      expect(replay.body.id).toBe(first.body.id);
      expect((await comment("k-day", "changed")).status).toBe(422);

      clock = new Date(clock.getTime() + 1000);
      const again = await comment("k-day", "changed");
      expect(again.status).toBe(201);
      expect(again.replayed).toBeNull();
      expect(again.body.id).not.toBe(first.body.id);
      expect(again.body.body).toBe("changed");
      // The renewed key is remembered for another 24 h from now.
      expect(await comment("k-day", "changed")).toMatchObject({
        replayed: "true",
        body: { id: again.body.id },
      });

      // k-other expired too; using any new key prunes it.
      const keys = () =>
        (db.prepare("SELECT key FROM idempotency_keys ORDER BY key").all() as { key: string }[]).map(
          (r) => r.key,
        );
      expect(keys()).toEqual(["k-day", "k-other"]);
      expect((await comment("k-new", "new")).status).toBe(201);
      expect(keys()).toEqual(["k-day", "k-new"]);
    } finally {
      db.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
