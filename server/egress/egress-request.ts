import type { IncomingHttpHeaders } from "node:http";
import { type Dispatcher, request as undiciRequest } from "undici";
import { inSpan, outgoingTraceHeaders, SpanKind } from "../telemetry/tracing";
import { assertEgressAllowed, EgressError, egressDispatcher, egressFailure, logEgress } from "./egress-fetch";

export interface EgressRequestInit {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as it is: callers serialize their JSON themselves. */
  body?: string;
  signal?: AbortSignal;
  /** `error` (default): a redirect is a failure. `manual`: a 3xx is returned as it is. */
  redirect?: "error" | "manual";
}

/** An answer: status, headers (lower-case names) and the body, read once by the caller. */
export interface EgressAnswer {
  status: number;
  header(name: string): string | null;
  body: Dispatcher.ResponseData["body"];
}

/**
 * Headers the egress layer alone decides: the connection's own framing and target. `fetch`
 * replaced them; `request` sends what it is given, so a `Host` taken from an imported document's
 * header parameter would reach another virtual host behind an allowed address with the tenant's
 * credential attached. Such a request is refused before anything is sent.
 */
const PROTOCOL_HEADER =
  /^(host|connection|content-length|transfer-encoding|te|trailer|upgrade|keep-alive|expect|proxy-.*)$/i;

export function isProtocolHeader(name: string): boolean {
  return PROTOCOL_HEADER.test(name.trim());
}

function headerOf(headers: IncomingHttpHeaders) {
  return (name: string): string | null => {
    const value = headers[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  };
}

/**
 * The connectors' HTTP calls: the same egress policy as egressFetch (the URL refused before
 * anything is sent, each connection's address checked by the same dispatcher, no redirect
 * followed, one EgressError for every failure, a client span with `traceparent` sent on), through
 * undici's `request` on that dispatcher's keep-alive pool instead of `fetch`: no WHATWG Request,
 * Response, Headers and web streams per call, which were the biggest part of a connector read's
 * cost in serve's profile. The caller reads or dumps `body` (a pooled connection is reused only
 * then).
 */
export function egressRequest(url: URL, init: EgressRequestInit = {}): Promise<EgressAnswer> {
  const method = (init.method ?? "GET").toUpperCase();
  return inSpan(
    `HTTP ${method}`,
    { "http.request.method": method, "server.address": url.hostname, "url.path": url.pathname },
    async (span) => {
      await assertEgressAllowed(url);
      const protocol = Object.keys(init.headers ?? {}).find(isProtocolHeader);
      if (protocol) {
        logEgress(
          url,
          `protocol header ${protocol.trim().toLowerCase().slice(0, 40)} is set by the egress layer, not the caller`,
        );
        throw new EgressError(false);
      }
      const trace = outgoingTraceHeaders();
      const headers = trace.traceparent ? { ...init.headers, ...trace } : init.headers;
      let answer: Dispatcher.ResponseData;
      try {
        answer = await undiciRequest(url, {
          method: method as Dispatcher.HttpMethod,
          headers,
          body: init.body,
          signal: init.signal,
          dispatcher: egressDispatcher,
        });
      } catch (error) {
        // undici refuses a header value it cannot send before writing anything.
        if ((error as { code?: string }).code === "UND_ERR_INVALID_ARG") {
          logEgress(url, "request refused before sending", error);
          throw new EgressError(false);
        }
        throw egressFailure(url, error);
      }
      span.setAttribute("http.response.status_code", answer.statusCode);
      if (answer.statusCode >= 300 && answer.statusCode <= 399 && init.redirect !== "manual") {
        await answer.body.dump().catch(() => undefined);
        logEgress(url, `redirect not followed (HTTP ${answer.statusCode})`);
        throw new EgressError(true);
      }
      return { status: answer.statusCode, header: headerOf(answer.headers), body: answer.body };
    },
    { kind: SpanKind.CLIENT },
  );
}

/**
 * The answer's body as text, read no further than `maxBytes`: null when it is larger (the rest is
 * never buffered; the connection is closed rather than drained), so a system that answers without
 * end cannot fill the process's memory. Read by its `data` events, not `for await`: the stream's
 * async iterator (its promises and end-of-stream watcher) cost ~0.14 ms of CPU per answer more,
 * on every connector read.
 */
export function readAnswerText(answer: EgressAnswer, maxBytes: number): Promise<string | null> {
  const body = answer.body;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > maxBytes) {
        body.off("data", onData);
        body.destroy();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    body.on("data", onData);
    body.once("end", () =>
      resolve(
        chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks).toString("utf8"),
      ),
    );
    // A settled promise ignores the error a destroy after the bound may still emit.
    body.once("error", reject);
  });
}
