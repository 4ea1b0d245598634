import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
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

const pendingTotal = async () => (await call(legacy, "GET", "/v1/orders/ord_pending")).body.total;
const pay = async (key: string, signal?: AbortSignal) =>
  call(legacy, "POST", "/v1/payments", {
    idempotencyKey: key,
    signal,
    body: {
      order_id: "ord_pending",
      payment_method_id: "pm_alice_balance",
      amount: await pendingTotal(),
      reference: key,
    },
  });
const paymentsByRef = async (ref: string) =>
  (await call(legacy, "GET", `/v1/payments?reference=${ref}`)).body.data;

describe("fault injection", () => {
  test("latency delays matching calls, for `count` calls only", async () => {
    await legacy.injectFault({ match: "GET /v1/products/*", mode: "latency", latency_ms: 400, count: 1 });
    const t = Date.now();
    expect((await call(legacy, "GET", "/v1/products/prod_mug")).status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(380);
    // Used up: no longer listed, so the next call is not delayed (checked by state, not a clock).
    const faults = await fetch(`${legacy.url}/admin/faults`, {
      headers: { "x-admin-key": legacy.adminKey },
    }).then((r) => r.json());
    expect(faults.data).toEqual([]);
  });

  test("error answers 503 without effect and without using up the idempotency key", async () => {
    await legacy.injectFault({ match: "POST /v1/payments", mode: "error", error_rate: 1, count: 2 });
    const first = await pay("k-err");
    const second = await pay("k-err");
    expect([first.status, second.status]).toEqual([503, 503]);
    expect(first.body.error.code).toBe("service_unavailable");
    expect(await paymentsByRef("k-err")).toHaveLength(0);
    const third = await pay("k-err");
    expect(third.status).toBe(201);
    expect(third.headers.get("idempotent-replayed")).toBeNull();
  });

  test("error_rate 0 never fires", async () => {
    await legacy.injectFault({ match: "GET /v1/health", mode: "error", error_rate: 0 });
    for (let i = 0; i < 5; i++) expect((await call(legacy, "GET", "/v1/health")).status).toBe(200);
  });

  test("down answers 503 to every matching call until cleared; others work", async () => {
    await legacy.injectFault({ match: "* /v1/orders/**", mode: "down" });
    for (let i = 0; i < 3; i++) expect((await call(legacy, "GET", "/v1/orders/ord_paid")).status).toBe(503);
    expect(
      (await call(legacy, "POST", "/v1/orders/ord_paid/refunds", { body: { amount: 1, reason: "x" } }))
        .status,
    ).toBe(503);
    expect((await call(legacy, "GET", "/v1/products")).status).toBe(200);
    await legacy.clearFaults();
    expect((await call(legacy, "GET", "/v1/orders/ord_paid")).status).toBe(200);
    expect((await call(legacy, "GET", "/v1/orders/ord_paid")).body.refunds).toEqual([]);
  });

  test("commit_then_timeout applies the change, then the caller times out; the same key replays it", async () => {
    await legacy.injectFault({
      match: "POST /v1/payments",
      mode: "commit_then_timeout",
      latency_ms: 5_000,
      count: 1,
    });
    await expect(pay("k-ctt", AbortSignal.timeout(300))).rejects.toThrow();
    const stored = await paymentsByRef("k-ctt");
    expect(stored).toHaveLength(1);
    expect((await call(legacy, "GET", "/v1/orders/ord_pending")).body.status).toBe("paid");
    const recovered = await pay("k-ctt");
    expect(recovered.status).toBe(201);
    expect(recovered.headers.get("idempotent-replayed")).toBe("true");
    expect(recovered.body.id).toBe(stored[0].id);
  });

  test("commit_then_timeout drops the connection after latency_ms", async () => {
    await legacy.injectFault({
      match: "POST /v1/orders/*/refunds",
      mode: "commit_then_timeout",
      latency_ms: 100,
      count: 1,
    });
    await expect(
      call(legacy, "POST", "/v1/orders/ord_paid/refunds", {
        body: { amount: 500, reason: "x", reference: "r-ctt" },
      }),
    ).rejects.toThrow();
    expect((await call(legacy, "GET", "/v1/refunds?reference=r-ctt")).body.total).toBe(1);
  });

  test("noop_success answers success and changes nothing; the key stays free", async () => {
    await legacy.injectFault({ match: "POST /v1/payments", mode: "noop_success", count: 1 });
    const before = (await call(legacy, "GET", "/v1/customers/cus_alice")).body.balance;
    const fake = await pay("k-noop");
    expect(fake.status).toBe(201);
    expect(fake.body).toMatchObject({ status: "succeeded", reference: "k-noop", order_id: "ord_pending" });
    expect(await paymentsByRef("k-noop")).toHaveLength(0);
    expect((await call(legacy, "GET", "/v1/orders/ord_pending")).body.status).toBe("pending_payment");
    expect((await call(legacy, "GET", "/v1/customers/cus_alice")).body.balance).toBe(before);
    const real = await pay("k-noop");
    expect(real.headers.get("idempotent-replayed")).toBeNull();
    expect(await paymentsByRef("k-noop")).toHaveLength(1);
  });

  test("noop_success on the generic ticket PATCH returns the would-be ticket, stored one unchanged", async () => {
    await legacy.injectFault({ match: "PATCH /v1/tickets/{id}", mode: "noop_success", count: 1 });
    const res = await call(legacy, "PATCH", "/v1/tickets/tkt_1", { body: { status: "closed" } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("closed");
    expect((await call(legacy, "GET", "/v1/tickets/tkt_1")).body.status).toBe("open");
  });

  test("the admin API needs its key and validates faults", async () => {
    const noKey = await fetch(`${legacy.url}/admin/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ match: "*", mode: "down" }),
    });
    expect(noKey.status).toBe(401);
    const tenantKey = await fetch(`${legacy.url}/admin/reset`, {
      method: "POST",
      headers: { "x-admin-key": legacy.apiKeys.acme },
    });
    expect(tenantKey.status).toBe(401);
    await expect(legacy.injectFault({ match: "*", mode: "explode" as "down" })).rejects.toThrow(/400/);
    expect((await call(legacy, "GET", "/v1/health")).status).toBe(200);
  });
});
