import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { legacyRoutes } from "@/server/legacy/legacy-routes";
import { type RunningLegacy, startLegacy } from "@/test/helpers/legacy-server";

let legacy: RunningLegacy;
beforeAll(async () => {
  legacy = await startLegacy();
});
afterAll(async () => {
  await legacy.stop();
});

describe("/openapi.json", () => {
  test("is a valid OpenAPI 3.1 document", async () => {
    const doc = await fetch(`${legacy.url}/openapi.json`).then((r) => r.json());
    expect(doc.openapi).toBe("3.1.0");
    // validate() checks it against the OpenAPI 3.1 schema and resolves every $ref.
    const api = await SwaggerParser.validate(structuredClone(doc));
    expect(api.info.title).toBeTruthy();
  });

  test("documents every endpoint the service answers, with auth, idempotency and business errors", async () => {
    const doc = await fetch(`${legacy.url}/openapi.json`).then((r) => r.json());
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(legacyRoutes.map((r) => `${r.method} ${r.path}`).sort());
    expect(documented.length).toBeGreaterThanOrEqual(40);

    const refunds = doc.paths["/v1/orders/{id}/refunds"].post;
    expect(refunds.security).toEqual([{ bearerAuth: [] }]);
    expect(refunds.parameters.map((p: { name: string }) => p.name)).toContain("Idempotency-Key");
    expect(refunds.responses["409"].description).toContain("order_already_shipped");
    expect(refunds.responses["422"].description).toContain("idempotency_key_reused");
    expect(refunds.requestBody.content["application/json"].schema.required).toEqual(["amount", "reason"]);
    const order = doc.paths["/v1/orders/{id}"].get.responses["200"].content["application/json"].schema;
    expect(Object.keys(order.properties)).toEqual(
      expect.arrayContaining(["status", "items", "payment", "shipment", "shipping_difference", "refunds"]),
    );
    const listOrders = doc.paths["/v1/orders"].get.parameters.map((p: { name: string }) => p.name);
    expect(listOrders).toEqual(
      expect.arrayContaining(["customer_id", "status", "reference", "page", "per_page"]),
    );
    expect(doc.paths["/admin/faults"].post.security).toEqual([{ adminKey: [] }]);
  });
});
