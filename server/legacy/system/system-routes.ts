import { z } from "zod";
import { defineRoute } from "../http/define-route";

export const systemRoutes = [
  defineRoute({
    method: "GET",
    path: "/health",
    operationId: "health",
    summary: "Liveness probe (no auth)",
    tag: "system",
    auth: "none",
    response: z.strictObject({ ok: z.literal(true) }),
    handler: () => ({ ok: true as const }),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/health",
    operationId: "testConnection",
    summary: "Test connection: checks the API key and names its tenant",
    tag: "system",
    response: z.strictObject({ ok: z.literal(true), tenant: z.string() }),
    handler: ({ tenantId }) => ({ ok: true as const, tenant: tenantId }),
  }),
  defineRoute({
    method: "GET",
    path: "/openapi.json",
    operationId: "openapi",
    summary: "This OpenAPI 3.1 document (no auth)",
    tag: "system",
    auth: "none",
    response: z.record(z.string(), z.unknown()),
    handler: ({ services }) => services.openApiDocument(),
  }),
];
