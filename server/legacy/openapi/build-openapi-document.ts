import { z } from "zod";
import type { Route } from "../http/define-route";

type JsonObject = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonObject {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonObject;
  return rest;
}

const errorRef = { $ref: "#/components/schemas/Error" };

function errorResponse(description: string) {
  return { description, content: { "application/json": { schema: errorRef } } };
}

/** HTTP errors every route of a kind can answer, besides the business errors it declares. */
function standardErrors(route: Route): { status: number; code: string; when: string }[] {
  const list: { status: number; code: string; when: string }[] = [];
  if (route.body || route.query)
    list.push({ status: 400, code: "invalid_request", when: "malformed body or query" });
  if (route.auth !== "none") list.push({ status: 401, code: "unauthorized", when: "missing or invalid key" });
  if (route.path.includes("{"))
    list.push({ status: 404, code: "not_found", when: "no such object in this tenant" });
  if (route.idempotent) {
    list.push({
      status: 409,
      code: "idempotency_key_in_use",
      when: "the first request with this key is still running",
    });
    list.push({
      status: 422,
      code: "idempotency_key_reused",
      when: "this key was used with other parameters",
    });
  }
  if (route.auth !== "admin")
    list.push({ status: 503, code: "service_unavailable", when: "temporary failure; retry" });
  return list;
}

/**
 * The OpenAPI 3.1 document, generated from the route table and its zod schemas so it
 * cannot drift from what the service accepts and answers.
 */
export function buildOpenApiDocument(routes: readonly Route[]): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    const parameters: JsonObject[] = [];
    for (const m of route.path.matchAll(/\{([^}]+)\}/g)) {
      parameters.push({ name: m[1], in: "path", required: true, schema: { type: "string" } });
    }
    if (route.query) {
      for (const [name, field] of Object.entries(route.query.shape as Record<string, z.ZodType>)) {
        const schema = jsonSchema(field, "output");
        const { description, ...rest } = schema;
        parameters.push({
          name,
          in: "query",
          required: !field.safeParse(undefined).success,
          ...(description ? { description } : {}),
          schema: rest,
        });
      }
    }
    if (route.idempotent) {
      parameters.push({
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description:
          "Stripe semantics: the first response is stored and replayed (header Idempotent-Replayed: true); other parameters → 422; still running → 409",
        schema: { type: "string", minLength: 1, maxLength: 255 },
      });
    }

    const responses: JsonObject = {
      [String(route.status)]: {
        description: "success",
        ...(route.idempotent
          ? {
              headers: {
                "Idempotent-Replayed": {
                  description:
                    "true when this is the stored response of an earlier request with the same key",
                  schema: { type: "string", enum: ["true"] },
                },
              },
            }
          : {}),
        content: { "application/json": { schema: jsonSchema(route.response, "output") } },
      },
    };
    const byStatus = new Map<number, string[]>();
    for (const e of [...standardErrors(route), ...route.errors]) {
      byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), `\`${e.code}\`: ${e.when}`]);
    }
    for (const [status, lines] of [...byStatus].sort((a, b) => a[0] - b[0])) {
      responses[String(status)] = errorResponse(lines.join("; "));
    }

    const operation: JsonObject = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      security:
        route.auth === "tenant" ? [{ bearerAuth: [] }] : route.auth === "admin" ? [{ adminKey: [] }] : [],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: !route.body.safeParse(undefined).success,
              content: { "application/json": { schema: jsonSchema(route.body, "input") } },
            },
          }
        : {}),
      responses,
    };
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method.toLowerCase()]: operation };
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Acme legacy backend (demo)",
      version: "1.0.0",
      description:
        "Shop and helpdesk REST API of the demo legacy system. Money is integer cents (USD). Data is scoped to the tenant of the API key.",
    },
    tags: [
      { name: "shop", description: "catalog, customers, carts, orders, payments, fulfilment, after-sales" },
      { name: "helpdesk", description: "teams, teammates, tickets, comments" },
      { name: "system", description: "health and this document" },
      { name: "admin", description: "fault injection and reset (X-Admin-Key)" },
    ],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "the tenant's API key" },
        adminKey: { type: "apiKey", in: "header", name: "X-Admin-Key" },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: {
                code: { type: "string", description: "snake_case error code" },
                message: { type: "string" },
                details: { type: "object", additionalProperties: true },
              },
            },
          },
        },
      },
    },
  };
}
