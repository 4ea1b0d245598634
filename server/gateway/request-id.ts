import { randomUUID } from "node:crypto";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage, ServerResponse } from "node:http";
import { trustedProxyHops } from "./request-peer";

/** The header every request and response carries its id in; log lines and audit rows name it too. */
export const REQUEST_ID_HEADER = "x-request-id";

/** What a proxy's own id must look like to be kept: no spaces, quotes or control characters. */
const FORWARDED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

const holder = globalThis as typeof globalThis & { __signpostRequestIds?: true };

/**
 * The id of one HTTP request: a trusted proxy's X-Request-Id (SIGNPOST_TRUST_PROXY, so one id
 * follows the request through the edge and here), else a new UUID. A client's own value is
 * never believed without a trusted proxy: it would let anyone pick the id of their audit rows.
 */
export function assignRequestId(incoming: string | string[] | undefined): string {
  const given = Array.isArray(incoming) ? incoming.at(-1) : incoming;
  if (given && trustedProxyHops() > 0 && FORWARDED_ID.test(given)) return given;
  return randomUUID();
}

/**
 * Gives every HTTP request this process serves an id, in its X-Request-Id header (over whatever
 * the client sent) and on the response, before the request reaches Next.js or the access log.
 * Node's `http.server.request.start` channel runs first for every server in the process, so it
 * holds however Next.js was started. Idempotent.
 */
export function installRequestIds(): void {
  if (holder.__signpostRequestIds) return;
  holder.__signpostRequestIds = true;
  subscribe("http.server.request.start", (message) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    const id = assignRequestId(request.headers[REQUEST_ID_HEADER]);
    request.headers[REQUEST_ID_HEADER] = id;
    if (!response.headersSent) response.setHeader("X-Request-Id", id);
  });
}

/**
 * This request's id as a route handler sees it; null where this process assigns none (a test
 * calling a handler directly): then the header is the client's, and not an id of ours.
 */
export function requestIdOf(request: { headers: { get(name: string): string | null } }): string | null {
  if (!holder.__signpostRequestIds) return null;
  const id = request.headers.get(REQUEST_ID_HEADER);
  return id && id.length <= 128 ? id : null;
}
