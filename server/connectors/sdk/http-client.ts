/**
 * The HTTP client a connector's adapter talks to its system with (the demo's shop and helpdesk
 * use it too). It turns transport behaviour into a small set of results adapters can reason about:
 * answered (ok / business error), unavailable (nothing happened), timeout or dropped
 * (sent; it may have happened). Every request goes through the egress policy.
 */
import { EGRESS_FAILURE, EgressError, egressFetch } from "../../egress/egress-fetch";
import { type EgressAnswer, egressRequest, readAnswerText } from "../../egress/egress-request";
import { requestDeadline } from "../../egress/request-deadline";
import { SystemRejectedError, SystemUnavailableError } from "./system-errors";

export interface HttpClientOptions {
  baseUrl: string;
  /** The tenant's API key for the system, read from the vault by the gateway; never logged. */
  apiKey: string;
  /** Per-request deadline for reads and the default for writes. */
  timeoutMs?: number;
  /** Attempts for reads (safe to repeat). */
  readAttempts?: number;
  /** The largest answer body read; a larger one is not buffered (default 8 MiB). */
  maxResponseBytes?: number;
}

const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export type HttpAnswer =
  | { kind: "ok"; status: number; body: unknown; replayed: boolean }
  | { kind: "error"; status: number; code: string; message: string; details?: unknown }
  /** Nothing was processed: a 503 / 502 or a refused connection. */
  | { kind: "unavailable"; status?: number; message: string }
  /** The request left and no answer came in time: it may have been applied. */
  | { kind: "timeout"; message: string }
  /** The connection dropped after sending: it may have been applied. */
  | { kind: "dropped"; message: string };

export interface HttpRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  idempotencyKey?: string;
  timeoutMs?: number;
}

/**
 * What an adapter states about its writes, so the engine can tell "nothing was sent" from "sent,
 * outcome unknown" when an effect throws. `http`: the client every write of its effects goes
 * through (createHttpClient's); the engine watches it while an effect runs, and once a request
 * other than a GET has left, an exception means `unknown` (verify, never re-send). `null`: the
 * adapter sends some other way, and its effects answer every outcome as an EffectResult instead
 * of throwing after a send (an exception then counts as not sent only if it is a
 * SystemUnavailableError).
 */
export interface AdapterWrites {
  readonly http: HttpClient | null;
}

export interface HttpClient {
  request(req: HttpRequest): Promise<HttpAnswer>;
  /**
   * A read with retries: the body, or null on 404; throws SystemUnavailableError when it stays
   * down or fails (5xx) and SystemRejectedError on any other non-2xx answer.
   */
  get<T>(path: string, query?: HttpRequest["query"]): Promise<T | null>;
  /** A read that must exist in a business sense; a 4xx other than 404 is returned as an error. */
  read(path: string, query?: HttpRequest["query"]): Promise<HttpAnswer>;
  /** A POST used to compute something (quotes): retried like a read, nothing is changed by it. */
  compute<T>(
    path: string,
    body: unknown,
  ): Promise<{ ok: true; body: T } | { ok: false; code: string; message: string }>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function errorCode(err: unknown): string {
  const e = err as { name?: string; code?: unknown; cause?: { code?: string; name?: string } };
  // DOMException carries a numeric legacy `code`; its name is what tells a timeout.
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return e.name;
  return (
    e?.cause?.code ??
    (typeof e?.code === "string" ? e.code : undefined) ??
    e?.cause?.name ??
    e?.name ??
    "error"
  );
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const base = options.baseUrl.replace(/\/+$/, "");
  const defaultTimeout = options.timeoutMs ?? 5000;
  const readAttempts = options.readAttempts ?? 3;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  const origin = new URL(base).origin;
  async function request(req: HttpRequest): Promise<HttpAnswer> {
    // The key goes to the system's own origin only: a path is one (`/v1/…`), never a host
    // (`@evil.example/x`, `//evil.example`), whatever an id or a connector put in it.
    const url = /^\/(?!\/)/.test(req.path) ? new URL(base + req.path) : null;
    if (!url || url.origin !== origin)
      return {
        kind: "error",
        status: 400,
        code: "bad_path",
        message: "the request path is not a path on the system",
      };
    for (const [k, v] of Object.entries(req.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.apiKey}`,
      accept: "application/json",
    };
    if (req.body !== undefined) headers["content-type"] = "application/json";
    if (req.idempotencyKey) headers["idempotency-key"] = req.idempotencyKey;
    // The deadline covers the answer's body too; cleared once it is read (or the read failed).
    const deadline = requestDeadline(req.timeoutMs ?? defaultTimeout);
    try {
      return await answerOf(req, url, headers, deadline.signal);
    } finally {
      deadline.clear();
    }
  }

  async function answerOf(
    req: HttpRequest,
    url: URL,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<HttpAnswer> {
    let res: EgressAnswer;
    try {
      res = await egressRequest(url, {
        method: req.method,
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        // A redirect would carry the key elsewhere: answered as the 3xx it is.
        redirect: "manual",
        signal,
      });
    } catch (err) {
      // Refused by the egress policy or never connected: nothing was sent.
      if (err instanceof EgressError && !err.sent)
        return { kind: "unavailable", message: `the system is unreachable: ${EGRESS_FAILURE}` };
      if (err instanceof EgressError && err.timedOut)
        return { kind: "timeout", message: `no answer within ${req.timeoutMs ?? defaultTimeout} ms` };
      return { kind: "dropped", message: `connection dropped: ${EGRESS_FAILURE}` };
    }
    let body: unknown = null;
    try {
      const text = await readAnswerText(res, maxResponseBytes);
      if (text === null) {
        const message = `the system's answer is larger than ${maxResponseBytes} bytes; it was not read`;
        // A write's success that cannot be read may still have been applied: verify, never re-send.
        if (req.method !== "GET" && res.status >= 200 && res.status < 300)
          return { kind: "dropped", message };
        return { kind: "error", status: res.status, code: "answer_too_large", message };
      }
      body = text ? JSON.parse(text) : null;
    } catch (err) {
      // Headers came but the body did not: the server may have acted.
      if (res.status >= 200 && res.status < 300)
        return { kind: "dropped", message: `response body lost (${errorCode(err)})` };
    }
    if (res.status >= 200 && res.status < 300)
      return {
        kind: "ok",
        status: res.status,
        body,
        replayed: res.header("idempotent-replayed") === "true",
      };
    if (res.status === 502 || res.status === 503 || res.status === 504)
      return {
        kind: "unavailable",
        status: res.status,
        message: `the system is unavailable (${res.status})`,
      };
    const error = (body as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
    return {
      kind: "error",
      status: res.status,
      code: error?.code ?? `http_${res.status}`,
      message: error?.message ?? `the system answered ${res.status}`,
      details: error?.details,
    };
  }

  /** Repeats a request that changes nothing until it is answered; throws when it stays down. */
  async function untilAnswered(req: HttpRequest): Promise<Extract<HttpAnswer, { kind: "ok" | "error" }>> {
    let last: HttpAnswer | undefined;
    for (let attempt = 0; attempt < readAttempts; attempt++) {
      if (attempt > 0) await sleep(50 * 2 ** attempt);
      last = await request(req);
      if (last.kind === "ok" || last.kind === "error") return last;
    }
    throw new SystemUnavailableError(last && "message" in last ? last.message : "the system is unavailable");
  }

  const read = (path: string, query?: HttpRequest["query"]): Promise<HttpAnswer> =>
    untilAnswered({ method: "GET", path, query });

  return {
    request,
    read,
    async get<T>(path: string, query?: HttpRequest["query"]): Promise<T | null> {
      const res = await read(path, query);
      if (res.kind === "ok") return res.body as T;
      if (res.kind === "error" && res.status === 404) return null;
      if (res.kind === "error" && res.status >= 500)
        // The system failed on a read: nothing changed and a later read may work.
        throw new SystemUnavailableError(`the system failed (${res.status})`);
      if (res.kind === "error") throw new SystemRejectedError(path, res.status, res.code, res.message);
      return null;
    },
    async compute<T>(path: string, body: unknown) {
      const res = await untilAnswered({ method: "POST", path, body });
      return res.kind === "ok"
        ? { ok: true as const, body: res.body as T }
        : { ok: false as const, code: res.code, message: res.message };
    },
  };
}

/**
 * Sends one state-changing request with the action key as Idempotency-Key, retrying
 * transient failures within the attempt budget with the SAME key (a system that deduplicates replays
 * the first answer, so a retry cannot apply twice). A timeout is not retried: it is `unknown`.
 */
export async function sendWithRetries(
  client: HttpClient,
  req: HttpRequest & { idempotencyKey: string },
  budget: { attempts: number; backoffMs?: number; timeoutMs: number },
): Promise<HttpAnswer> {
  let last: HttpAnswer = { kind: "unavailable", message: "not sent" };
  let ambiguous = false;
  for (let attempt = 0; attempt < Math.max(1, budget.attempts); attempt++) {
    if (attempt > 0) await sleep((budget.backoffMs ?? 100) * 2 ** (attempt - 1));
    last = await client.request({ ...req, timeoutMs: budget.timeoutMs });
    if (last.kind === "timeout") return last;
    // 409 idempotency_key_in_use: our own earlier attempt is still running there.
    if (last.kind === "error" && last.code === "idempotency_key_in_use") {
      ambiguous = true;
      continue;
    }
    if (last.kind === "ok" || last.kind === "error") return last;
    if (last.kind === "dropped") ambiguous = true;
  }
  // A dropped connection may have carried the request; with no answer since, we cannot know.
  if (ambiguous) return { kind: "dropped", message: `no definite answer after ${budget.attempts} attempts` };
  return last;
}

/**
 * A connection check for a system that takes its key as a Bearer token: `GET <path>` with the API key as a Bearer token, never
 * following a redirect with the key (a 3xx is reported as the status it is).
 */
export function bearerHealthCheck(path: string, secret = "api_key") {
  return async (options: { baseUrl: string; secrets: Record<string, string> }, signal: AbortSignal) => {
    const res = await egressFetch(new URL(path, options.baseUrl), {
      headers: { authorization: `Bearer ${options.secrets[secret] ?? ""}` },
      redirect: "manual",
      signal,
    });
    const body = (await res.json().catch(() => null)) as { ok?: unknown } | null;
    return { ok: res.ok && body?.ok === true, status: res.status };
  };
}
