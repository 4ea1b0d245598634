import type Database from "better-sqlite3";
import type { z } from "zod";
import type { FaultRegistry } from "../faults/fault-registry";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** `{id}` segments of a path template, as a type: "/v1/orders/{id}" → "id". */
export type PathParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | PathParamNames<Rest>
  : never;

export interface RouteServices {
  faults: FaultRegistry;
  resetDemoData(): void;
  openApiDocument(): Record<string, unknown>;
}

export interface RouteContext<P extends string, Q, B> {
  db: Database.Database;
  /** Empty for routes without tenant auth. */
  tenantId: string;
  params: { [K in PathParamNames<P>]: string };
  query: Q;
  body: B;
  now: Date;
  services: RouteServices;
}

/** A business error the route may answer with; documented in the OpenAPI document. */
export interface ErrorDoc {
  status: number;
  code: string;
  when: string;
}

export type RouteAuth = "tenant" | "none" | "admin";
export type RouteTag = "shop" | "helpdesk" | "system" | "admin";

/** One endpoint: everything the router, the pipeline and the OpenAPI generator need. */
export interface Route {
  method: HttpMethod;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: RouteTag;
  auth: RouteAuth;
  /** Accepts `Idempotency-Key` with Stripe semantics. */
  idempotent: boolean;
  query?: z.ZodObject;
  body?: z.ZodType;
  response: z.ZodType;
  status: number;
  errors: ErrorDoc[];
  // biome-ignore lint/suspicious/noExplicitAny: the route table is heterogeneous; defineRoute types each handler.
  handler(ctx: RouteContext<string, any, any>): unknown;
}

interface RouteDefinition<P extends string, Q extends z.ZodObject, B extends z.ZodType, R extends z.ZodType> {
  method: HttpMethod;
  path: P;
  operationId: string;
  summary: string;
  description?: string;
  tag: RouteTag;
  auth?: RouteAuth;
  idempotent?: boolean;
  query?: Q;
  body?: B;
  response: R;
  status?: number;
  errors?: ErrorDoc[];
  handler(ctx: RouteContext<P, z.output<Q>, z.output<B>>): z.input<R>;
}

/** Declares a route with its handler typed from its schemas. */
export function defineRoute<
  P extends string,
  Q extends z.ZodObject = z.ZodObject<Record<never, never>>,
  B extends z.ZodType = z.ZodUndefined,
  R extends z.ZodType = z.ZodType,
>(def: RouteDefinition<P, Q, B, R>): Route {
  return {
    method: def.method,
    path: def.path,
    operationId: def.operationId,
    summary: def.summary,
    description: def.description,
    tag: def.tag,
    auth: def.auth ?? "tenant",
    idempotent: def.idempotent ?? false,
    query: def.query,
    body: def.body,
    response: def.response,
    status: def.status ?? 200,
    errors: def.errors ?? [],
    handler: def.handler as Route["handler"],
  };
}
