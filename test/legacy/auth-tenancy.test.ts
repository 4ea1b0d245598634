import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningLegacy, startLegacy } from "@/test/helpers/legacy-server";
import { call } from "./legacy-http";

let legacy: RunningLegacy;
beforeAll(async () => {
  legacy = await startLegacy();
});
afterAll(async () => {
  await legacy.stop();
});

describe("auth", () => {
  test("missing, malformed and unknown keys are 401 unauthorized", async () => {
    for (const authorization of [null, "Basic abc", "Bearer", "Bearer nope", `Bearer ${legacy.adminKey}`]) {
      const res = await call(legacy, "GET", "/v1/orders/ord_paid", { authorization });
      expect(res.status, String(authorization)).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
    }
  });

  test("the test-connection endpoint names the key's tenant; /health and /openapi.json need no key", async () => {
    expect((await call(legacy, "GET", "/v1/health")).body).toEqual({ ok: true, tenant: "acme" });
    expect((await call(legacy, "GET", "/v1/health", { tenant: "globex" })).body).toEqual({
      ok: true,
      tenant: "globex",
    });
    expect((await call(legacy, "GET", "/health", { authorization: null })).status).toBe(200);
    expect((await call(legacy, "GET", "/openapi.json", { authorization: null })).status).toBe(200);
  });

  test("unknown endpoints are 404 and wrong methods 405, in the error envelope", async () => {
    const missing = await call(legacy, "GET", "/v1/nothing");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
    const method = await call(legacy, "DELETE", "/v1/orders/ord_paid");
    expect(method.status).toBe(405);
  });
});

describe("tenant isolation", () => {
  test("globex cannot see or touch acme's objects: 404 not_found", async () => {
    const reads = [
      "/v1/orders/ord_paid",
      "/v1/orders/ord_transit/tracking",
      "/v1/customers/cus_alice",
      "/v1/customers/cus_alice/addresses",
      "/v1/customers/cus_alice/cart",
      "/v1/products/prod_mug",
      "/v1/inventory/prod_mug",
      "/v1/payments/pay_paid",
      "/v1/tickets/tkt_1",
      "/v1/tickets/tkt_1/comments",
    ];
    for (const path of reads) {
      const res = await call(legacy, "GET", path, { tenant: "globex" });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code, path).toBe("not_found");
    }
    const refund = await call(legacy, "POST", "/v1/orders/ord_paid/refunds", {
      tenant: "globex",
      body: { amount: 100, reason: "x" },
    });
    expect(refund.status).toBe(404);
    const patch = await call(legacy, "PATCH", "/v1/tickets/tkt_1", {
      tenant: "globex",
      body: { status: "closed" },
    });
    expect(patch.status).toBe(404);
    expect((await call(legacy, "GET", "/v1/orders/ord_paid")).body.refunds).toEqual([]);
    expect((await call(legacy, "GET", "/v1/tickets/tkt_1")).body.status).toBe("open");
  });

  test("lists only show the key's tenant", async () => {
    const globexOrders = await call(legacy, "GET", "/v1/orders", { tenant: "globex" });
    expect(globexOrders.body.data.map((o: { id: string }) => o.id)).toEqual(["ord_globex_paid"]);
    const acmeOrders = await call(legacy, "GET", "/v1/orders?per_page=100");
    expect(acmeOrders.body.data.map((o: { id: string }) => o.id)).not.toContain("ord_globex_paid");
    const byEmail = await call(legacy, "GET", "/v1/customers?email=alice@acme.test", { tenant: "globex" });
    expect(byEmail.body.total).toBe(0);
    const teams = await call(legacy, "GET", "/v1/teams", { tenant: "globex" });
    expect(teams.body.data).toEqual([{ id: "support", name: "Support" }]);
    const refs = await call(legacy, "GET", "/v1/tickets?per_page=100", { tenant: "globex" });
    expect(refs.body.data.map((t: { id: string }) => t.id)).toEqual(["tkt_gx_1"]);
  });
});
