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

describe("catalog and customers", () => {
  test("products search and paginate", async () => {
    const page1 = await call(legacy, "GET", "/v1/products?q=tee&per_page=3");
    expect(page1.body).toMatchObject({ page: 1, per_page: 3, total: 4, next_page: 2 });
    const page2 = await call(legacy, "GET", "/v1/products?q=tee&per_page=3&page=2");
    expect(page2.body).toMatchObject({ page: 2, total: 4, next_page: null });
    expect(page2.body.data).toHaveLength(1);
    const mug = await call(legacy, "GET", "/v1/products/prod_mug");
    expect(mug.body).toMatchObject({ id: "prod_mug", price: 1800, currency: "USD", exchangeable: false });
    expect((await call(legacy, "GET", "/v1/products/prod_tee")).body).toMatchObject({
      price: 2500,
      exchangeable: true,
    });
    expect((await call(legacy, "GET", "/v1/products?per_page=500")).status).toBe(400);
  });

  test("products sort by price either way; the sort is documented in /openapi.json", async () => {
    const prices = async (sort: string) =>
      ((await call(legacy, "GET", `/v1/products?sort=${sort}`)).body.data as Array<{ price: number }>).map(
        (p) => p.price,
      );
    const up = await prices("price");
    expect(up).toEqual([...up].sort((a, b) => a - b));
    expect(await prices("-price")).toEqual([...up].reverse().sort((a, b) => b - a));
    expect(up[0]).toBeLessThan(up[up.length - 1] as number);
    expect((await call(legacy, "GET", "/v1/products?sort=cheapest")).status).toBe(400);
    const doc = await fetch(`${legacy.url}/openapi.json`).then((r) => r.json());
    const sort = doc.paths["/v1/products"].get.parameters.find((p: { name: string }) => p.name === "sort");
    expect(sort.schema.enum).toEqual(["name", "price", "-price"]);
  });

  test("customers by email, with addresses and payment methods", async () => {
    const found = await call(legacy, "GET", "/v1/customers?email=ALICE@acme.test");
    expect(found.body.data).toEqual([
      { id: "cus_alice", email: "alice@acme.test", name: "Alice Example", balance: 100000 },
    ]);
    const addresses = await call(legacy, "GET", "/v1/customers/cus_alice/addresses");
    expect(addresses.body.data.map((a: { label: string }) => a.label).sort()).toEqual(["Home", "Office"]);
    const methods = await call(legacy, "GET", "/v1/customers/cus_alice/payment-methods");
    expect(
      methods.body.data.map((m: { type: string; available: number | null }) => [m.type, m.available]),
    ).toEqual([
      ["balance", 100000],
      ["card", null],
    ]);
    const bad = await call(legacy, "POST", "/v1/customers/cus_alice/addresses", {
      body: { label: "X", line1: "1", city: "Y", postal_code: "1", country: "usa" },
    });
    expect(bad.status).toBe(400);
  });

  test("cart: add, set quantity, remove; stock is checked", async () => {
    const cart = await call(legacy, "GET", "/v1/customers/cus_alice/cart");
    expect(
      cart.body.items.map((i: { product_id: string; quantity: number }) => [i.product_id, i.quantity]),
    ).toEqual([
      ["prod_mug", 2],
      ["prod_tee", 1],
    ]);
    expect(cart.body.subtotal).toBe(2 * 1800 + 2500);
    const set = await call(legacy, "POST", "/v1/customers/cus_alice/cart/items", {
      body: { product_id: "prod_mug", quantity: 5 },
    });
    expect(set.body.subtotal).toBe(5 * 1800 + 2500);
    const added = await call(legacy, "POST", "/v1/customers/cus_alice/cart/items", {
      body: { product_id: "prod_lamp", quantity: 1 },
    });
    expect(added.body.items).toHaveLength(3);
    const over = await call(legacy, "POST", "/v1/customers/cus_alice/cart/items", {
      body: { product_id: "prod_lamp", quantity: 6 },
    });
    expect(over.body.error.code).toBe("insufficient_stock");
    const removed = await call(legacy, "DELETE", "/v1/customers/cus_alice/cart/items/prod_tee");
    expect(removed.body.items.map((i: { product_id: string }) => i.product_id)).toEqual([
      "prod_mug",
      "prod_lamp",
    ]);
    expect((await call(legacy, "DELETE", "/v1/customers/cus_alice/cart/items/prod_tee")).status).toBe(404);
  });

  test("reset restores the demo data", async () => {
    await call(legacy, "POST", "/v1/orders/ord_pending/cancel");
    await legacy.reset();
    expect((await call(legacy, "GET", "/v1/orders/ord_pending")).body.status).toBe("pending_payment");
  });
});
