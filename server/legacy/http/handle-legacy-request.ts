import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type Database from "better-sqlite3";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  requestFingerprint,
} from "../idempotency/idempotency-store";
import type { Route, RouteServices } from "./define-route";
import { LegacyError } from "./legacy-error";
import { matchRoute } from "./match-route";

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  ms: number;
  tenant: string | null;
  faults: string[];
  replayed: boolean;
}

export interface PipelineDeps {
  db: Database.Database;
  routes: readonly Route[];
  services: RouteServices;
  adminKey: string;
  /** Check every success body against the route's response schema (tests turn this on). */
  validateResponses: boolean;
  /** Timers of held responses (latency, commit_then_timeout), cleared on close. */
  timers: Set<NodeJS.Timeout>;
  onRequest?: (entry: RequestLogEntry) => void;
  /** The clock idempotency keys expire by (tests inject one instead of waiting a day). */
  now: () => Date;
}

const maxBodyBytes = 1_000_000;
const rollback = Symbol("rollback");

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        reject(new LegacyError(413, "payload_too_large", "request body over 1 MB"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sleep(ms: number, timers: Set<NodeJS.Timeout>): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      timers.delete(t);
      resolve();
    }, ms);
    timers.add(t);
  });
}

function sameSecret(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}

function zodDetails(error: { issues: { path: PropertyKey[]; message: string }[] }) {
  return { issues: error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })) };
}

function authenticate(db: Database.Database, header: string | undefined): string {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  if (!match?.[1]) throw new LegacyError(401, "unauthorized", "missing Authorization: Bearer <api key>");
  const row = db.prepare("SELECT id FROM tenants WHERE api_key = ?").get(match[1]) as
    | { id: string }
    | undefined;
  if (!row) throw new LegacyError(401, "unauthorized", "invalid API key");
  return row.id;
}

function parseBody(route: Route, raw: string): unknown {
  if (!route.body) return undefined;
  let json: unknown;
  if (raw.trim() !== "") {
    try {
      json = JSON.parse(raw);
    } catch {
      throw new LegacyError(400, "invalid_request", "body is not valid JSON");
    }
  }
  const parsed = route.body.safeParse(json);
  if (!parsed.success)
    throw new LegacyError(400, "invalid_request", "request body is invalid", zodDetails(parsed.error));
  return parsed.data;
}

function parseQuery(route: Route, params: URLSearchParams): unknown {
  if (!route.query) return {};
  const parsed = route.query.safeParse(Object.fromEntries(params));
  if (!parsed.success)
    throw new LegacyError(400, "invalid_request", "query parameters are invalid", zodDetails(parsed.error));
  return parsed.data;
}

/**
 * The pipeline of every call: route → faults(down) → auth → validate → idempotency claim →
 * injected latency/error → handler in one transaction (with the idempotent response stored
 * in the same transaction) → injected commit_then_timeout / noop_success → response.
 */
export async function handleLegacyRequest(
  deps: PipelineDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const started = Date.now();
  const url = new URL(req.url ?? "/", "http://legacy.local");
  const method = (req.method ?? "GET").toUpperCase();
  const requestId = `req_${randomBytes(6).toString("hex")}`;
  const log: RequestLogEntry = {
    method,
    path: url.pathname,
    status: 0,
    ms: 0,
    tenant: null,
    faults: [],
    replayed: false,
  };
  let claimed: { tenantId: string; key: string } | null = null;

  const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    log.status = status;
    log.ms = Date.now() - started;
    res.writeHead(status, {
      "content-type": "application/json; charset=utf-8",
      "request-id": requestId,
      ...headers,
    });
    res.end(JSON.stringify(body));
    deps.onRequest?.(log);
  };

  try {
    const match = matchRoute(deps.routes, method, url.pathname);
    if (match.kind === "not_found")
      throw new LegacyError(404, "not_found", `no endpoint ${method} ${url.pathname}`);
    if (match.kind === "method_not_allowed") {
      throw new LegacyError(405, "method_not_allowed", `${method} not allowed here`, {
        allowed: match.allowed,
      });
    }
    const { route, params } = match;
    const raw = method === "GET" || method === "HEAD" ? "" : await readBody(req);

    const faults = route.auth === "admin" ? [] : deps.services.faults.take(method, url.pathname);
    log.faults = faults.map((f) => f.mode);
    const fault = (mode: string) => faults.find((f) => f.mode === mode);
    if (fault("down")) throw new LegacyError(503, "service_unavailable", "the service is down");

    let tenantId = "";
    if (route.auth === "tenant") {
      tenantId = authenticate(deps.db, req.headers.authorization);
      log.tenant = tenantId;
    } else if (route.auth === "admin") {
      const given = req.headers["x-admin-key"];
      if (typeof given !== "string" || !sameSecret(given, deps.adminKey)) {
        throw new LegacyError(401, "unauthorized", "missing or invalid X-Admin-Key");
      }
    }

    const query = parseQuery(route, url.searchParams);
    const body = parseBody(route, raw);

    const rawKey = route.idempotent ? req.headers["idempotency-key"] : undefined;
    const key = typeof rawKey === "string" ? rawKey : undefined;
    if (key !== undefined) {
      if (key.length < 1 || key.length > 255) {
        throw new LegacyError(400, "invalid_request", "Idempotency-Key must be 1..255 characters");
      }
      const claim = claimIdempotencyKey(
        deps.db,
        tenantId,
        key,
        requestFingerprint(method, url.pathname, body),
        deps.now(),
      );
      if (claim.kind === "replay") {
        log.replayed = true;
        send(claim.status, claim.body, { "idempotent-replayed": "true" });
        return;
      }
      if (claim.kind === "in_use") {
        throw new LegacyError(
          409,
          "idempotency_key_in_use",
          "a request with this Idempotency-Key is still running",
        );
      }
      if (claim.kind === "reused_with_different_parameters") {
        throw new LegacyError(
          422,
          "idempotency_key_reused",
          "this Idempotency-Key was used with different parameters (or another endpoint)",
        );
      }
      claimed = { tenantId, key };
    }

    const latency = faults
      .filter((f) => f.mode === "latency")
      .reduce((sum, f) => sum + (f.latency_ms ?? 0), 0);
    if (latency > 0) await sleep(latency, deps.timers);
    const error = fault("error");
    if (error && Math.random() < (error.error_rate ?? 1)) {
      throw new LegacyError(503, "service_unavailable", "temporary failure, try again");
    }

    const ctx = { db: deps.db, tenantId, params, query, body, now: new Date(), services: deps.services };
    let result: unknown;
    if (method === "GET" || route.auth === "admin") {
      result = route.handler(ctx);
    } else if (fault("noop_success")) {
      // Run the real handler for a realistic answer, then roll everything back: "200, nothing changed".
      try {
        deps.db.transaction(() => {
          result = route.handler(ctx);
          throw rollback;
        })();
      } catch (e) {
        if (e !== rollback) throw e;
      }
      // Nothing happened, so nothing is stored: a retry with the same key really runs.
      if (claimed) releaseIdempotencyKey(deps.db, claimed.tenantId, claimed.key);
      claimed = null;
    } else {
      try {
        deps.db.transaction(() => {
          result = route.handler(ctx);
          if (claimed) completeIdempotencyKey(deps.db, claimed.tenantId, claimed.key, route.status, result);
        })();
        claimed = null;
      } catch (e) {
        // Stripe semantics: once the endpoint ran, its business error is the stored answer too.
        if (e instanceof LegacyError && claimed) {
          completeIdempotencyKey(deps.db, claimed.tenantId, claimed.key, e.status, e.toBody());
          claimed = null;
        }
        throw e;
      }
    }

    if (deps.validateResponses) {
      const check = route.response.safeParse(result);
      if (!check.success) {
        throw new Error(
          `response of ${route.operationId} breaks its schema: ${JSON.stringify(zodDetails(check.error))}`,
        );
      }
    }

    const hold = fault("commit_then_timeout");
    if (hold) {
      // The change is committed (and its idempotent response stored); the caller never hears back.
      log.status = -1;
      const t = setTimeout(() => {
        deps.timers.delete(t);
        res.socket?.destroy();
        deps.onRequest?.(log);
      }, hold.latency_ms ?? 30_000);
      deps.timers.add(t);
      return;
    }
    send(route.status, result);
  } catch (e) {
    if (claimed) releaseIdempotencyKey(deps.db, claimed.tenantId, claimed.key);
    if (e instanceof LegacyError) {
      send(e.status, e.toBody());
    } else {
      // One JSON line like the service's other output (it runs as its own process).
      process.stderr.write(
        `${JSON.stringify({ svc: "legacy", level: "error", time: new Date().toISOString(), msg: `${method} ${url.pathname} failed`, err: e instanceof Error ? (e.stack ?? e.message) : String(e) })}\n`,
      );
      send(500, { error: { code: "internal_error", message: "internal error" } });
    }
  }
}
