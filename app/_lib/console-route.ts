import { cookies } from "next/headers";
import type { z } from "zod";
import { type Db, getDb } from "@/server/db/client";
import {
  type ConsoleErrorCode,
  type ConsoleResult,
  consoleErrorStatus,
} from "@/server/gateway/console/console-result";
import {
  type ConsoleContext,
  type ConsoleRole,
  resolveConsoleSession,
  SESSION_COOKIE,
} from "@/server/gateway/console-session";
import { requestIdOf } from "@/server/gateway/request-id";
import { requestPeer } from "@/server/gateway/request-peer";
import { logger } from "@/server/logger";

export function errorResponse(code: ConsoleErrorCode, message: string, details?: unknown): Response {
  return Response.json(
    { error: { code, message, ...(details === undefined ? {} : { details }) } },
    { status: consoleErrorStatus[code], headers: { "cache-control": "no-store" } },
  );
}

export function resultResponse<T>(result: ConsoleResult<T>, status = 200): Response {
  if (!result.ok) return errorResponse(result.code, result.message, result.details);
  return Response.json(result.value, { status, headers: { "cache-control": "no-store" } });
}

/**
 * CSRF defence for cookie-authenticated mutations: the browser's Origin must be this
 * server's own origin (the Host header; X-Forwarded-Host only from a proxy SIGNPOST_TRUST_PROXY
 * trusts, else any client could name the attacker's origin as ours). A request without Origin is
 * refused too: every browser sends one on a cross-site POST/PUT/PATCH/DELETE, and our own pages always do.
 */
export function sameOrigin(req: Request): boolean {
  const origin = req.headers.get("origin");
  const { host } = requestPeer(req.headers);
  if (!origin || !host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** Secure cookies when the person reached us over https (directly or through a trusted proxy that says so). */
export function isHttps(req: Request): boolean {
  return requestPeer(req.headers).https;
}

type RouteArgs<B> = { req: Request; ctx: ConsoleContext; db: Db; body: B; params: Record<string, string> };

/**
 * The console's one route wrapper: origin check on mutations, session → trusted context,
 * role check, zod-validated JSON body, typed error answers. Handlers never see a request
 * that is not the signed-in person's own tenant.
 */
export function consoleRoute<S extends z.ZodType | undefined = undefined>(
  opts: { roles?: readonly ConsoleRole[]; body?: S },
  handler: (args: RouteArgs<S extends z.ZodType ? z.infer<S> : undefined>) => Promise<Response>,
) {
  return async (
    req: Request,
    routeCtx: { params: Promise<Record<string, string | string[]>> },
  ): Promise<Response> => {
    try {
      if (req.method !== "GET" && req.method !== "HEAD" && !sameOrigin(req)) {
        return errorResponse("forbidden", "Cross-origin request refused.");
      }
      const store = await cookies();
      const db = getDb();
      const session = await resolveConsoleSession(db, store.get(SESSION_COOKIE)?.value);
      if (!session) return errorResponse("unauthenticated", "Sign in first.");
      // The request id travels with the person's context into every audit row this request writes.
      const ctx: ConsoleContext = { ...session, requestId: requestIdOf(req) };
      if (opts.roles && !opts.roles.includes(ctx.role)) {
        return errorResponse("forbidden", `This needs the ${opts.roles.join(" or ")} role.`);
      }
      let body: unknown;
      if (opts.body) {
        const raw = await req.json().catch(() => Symbol.for("invalid"));
        if (raw === Symbol.for("invalid")) return errorResponse("invalid_request", "The body must be JSON.");
        const parsed = opts.body.safeParse(raw);
        if (!parsed.success) {
          return errorResponse(
            "invalid_request",
            "The request is not valid.",
            parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
          );
        }
        body = parsed.data;
      }
      const raw = routeCtx?.params ? await routeCtx.params : {};
      const params: Record<string, string> = {};
      for (const [k, v] of Object.entries(raw)) params[k] = Array.isArray(v) ? v.join("/") : v;
      return await handler({ req, ctx, db, body: body as never, params });
    } catch (error) {
      // A bug, not a domain failure: log it, answer a typed error, never leak internals.
      logger.error(
        { err: error instanceof Error ? error.stack : String(error), request_id: requestIdOf(req) },
        "console route failed",
      );
      return errorResponse("temporarily_unavailable", "Something went wrong on our side. Try again.");
    }
  };
}
