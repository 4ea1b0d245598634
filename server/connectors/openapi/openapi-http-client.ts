import { EGRESS_FAILURE, EgressError, egressFetch } from "../../egress/egress-fetch";
import { type EgressAnswer, egressRequest } from "../../egress/egress-request";
import { requestDeadline } from "../../egress/request-deadline";
import { logger } from "../../logger";
import {
  ConnectionRequiredError,
  type PersonConnectionHandle,
  UpstreamForbiddenError,
} from "../sdk/person-auth";
import { type ApiOperation, pathSuffixAt } from "./api-operations";
import { OPENAPI_LIMITS } from "./openapi-limits";
import type { SchemeAuth } from "./security-schemes";

export interface ApiCall {
  operation: ApiOperation;
  /** Path parameter values, by the document's names; each one path segment. */
  path: Record<string, string>;
  query: Record<string, string | number | boolean>;
  headers: Record<string, string>;
  body?: unknown;
  idempotencyKey?: string;
  /** The header the key goes in (the document's, or the one an admin named). */
  idempotencyHeader?: string;
}

export type ApiAnswer =
  | { kind: "ok"; status: number; body: unknown; truncated: boolean; link: string | null }
  | { kind: "error"; status: number; body: unknown }
  /** Nothing was processed: refused connection, 502/503/504. */
  | { kind: "unavailable"; status?: number; message: string }
  /** Sent, no answer in time, or the connection dropped: a write may have happened. */
  | { kind: "unknown"; message: string }
  /** The call cannot be made as asked (a missing secret, a bad parameter): nothing was sent. */
  | { kind: "refused"; message: string };

// Any characters but a separator: the value is percent-encoded as one segment.
const PATH_VALUE = /^[^/\\]{1,200}$/;

/** A control character (CR, LF, NUL, tab…): never part of a header or path value. */
export const CONTROL = /\p{Cc}/u;

/**
 * The upstream URL of an operation: the base URL plus the document's path template, each
 * parameter encoded as one segment (`.` and `..` refused, so a value can never climb out of
 * the path), and checked to stay under the base URL's origin and path.
 */
export function operationUrl(baseUrl: string, call: ApiCall): URL | string {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, "");
  let problem = "";
  // A documented query or fragment (`/#Action=…`) is no part of the path sent: its pairs are parameters.
  const documented = call.operation.path;
  const at = pathSuffixAt(documented);
  const path = (at < 0 ? documented : documented.slice(0, at)).replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = call.path[name];
    if (
      typeof value !== "string" ||
      !PATH_VALUE.test(value) ||
      CONTROL.test(value) ||
      value === "." ||
      value === ".."
    ) {
      problem ||= `path parameter ${name} must be one non-empty segment`;
      return "_";
    }
    return encodeURIComponent(value);
  });
  if (problem) return problem;
  const url = new URL(base.origin);
  url.pathname = `${prefix}${path.startsWith("/") ? path : `/${path}`}`;
  for (const [k, v] of Object.entries(call.query)) url.searchParams.set(k, String(v));
  if (url.origin !== base.origin || !url.pathname.startsWith(prefix))
    return "the URL would leave the API's base URL";
  return url;
}

export interface ApiClientOptions {
  baseUrl: string;
  /** Secret values by secret name (server-side only). */
  secrets: Record<string, string>;
  schemes: Map<string, SchemeAuth>;
  timeoutMs?: number;
  /** The person's own connection, for `per_person` schemes (the gateway resolved it). */
  person?: PersonConnectionHandle;
  /** The connector, named in `connection_required` and `forbidden`. */
  system?: { id: string; title: string };
}

async function readBody(res: EgressAnswer): Promise<{ body: unknown; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  let truncated = false;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > OPENAPI_LIMITS.maxResponseBytes) {
      truncated = true;
      // The rest is never read: the connection is closed rather than drained.
      res.body.destroy();
      break;
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (!truncated && /json/i.test(res.header("content-type") ?? "")) {
    try {
      return { body: JSON.parse(text), truncated };
    } catch {
      return { body: text.slice(0, 2000), truncated };
    }
  }
  return { body: text.slice(0, 2000), truncated };
}

/** Which address did not answer: its origin and path, never its query (an API key may be there). */
function where(address: string): string {
  try {
    const u = new URL(address);
    return `${u.origin}${u.pathname === "/" ? "" : u.pathname}`.slice(0, 200);
  } catch {
    return "its address";
  }
}

/** The HTTP client of an imported API: auth from the vault's secrets, bounded reads, typed answers. */
export function createApiClient(options: ApiClientOptions) {
  const tokens = new Map<string, { token: string; until: number }>();

  async function clientCredentialsToken(
    auth: Extract<SchemeAuth, { kind: "client_credentials" }>,
    secret: string,
  ) {
    const cached = tokens.get(auth.name);
    if (cached && cached.until > Date.now()) return cached.token;
    const colon = secret.indexOf(":");
    if (colon < 1) throw new Error(`secret ${auth.name} must be client_id:client_secret`);
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (auth.scopes.length) form.set("scope", auth.scopes.join(" "));
    let res: Response;
    try {
      res = await egressFetch(auth.tokenUrl, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(secret.slice(0, colon))}:${encodeURIComponent(secret.slice(colon + 1))}`).toString("base64")}`,
        },
        body: form,
        redirect: "error",
        signal: AbortSignal.timeout(options.timeoutMs ?? OPENAPI_LIMITS.timeoutMs),
      });
    } catch {
      // Which endpoint is named (an admin fixes it); why is not (the same words for every cause).
      throw new Error(
        `the token endpoint of ${auth.name} (${where(auth.tokenUrl)}) could not be reached: ${EGRESS_FAILURE}`,
      );
    }
    const body = (await res.json().catch(() => null)) as {
      access_token?: unknown;
      expires_in?: unknown;
    } | null;
    if (!res.ok || typeof body?.access_token !== "string") {
      logger.warn(
        { egress: { origin: new URL(auth.tokenUrl).origin, status: res.status } },
        "no access token",
      );
      throw new Error(`the token endpoint of ${auth.name} gave no access token`);
    }
    const seconds = typeof body.expires_in === "number" ? body.expires_in : 300;
    tokens.set(auth.name, { token: body.access_token, until: Date.now() + Math.max(0, seconds - 30) * 1000 });
    return body.access_token;
  }

  /** Applies the first of the operation's security alternatives whose secrets are all set. */
  async function authenticate(
    op: ApiOperation,
    url: URL,
    headers: Record<string, string>,
  ): Promise<string | null> {
    if (op.security.length === 0 || op.security.some((alt) => alt.length === 0)) return null;
    const usable = op.security.find((alt) =>
      alt.every((scheme) => {
        const auth = options.schemes.get(scheme);
        if (auth?.kind === "per_person") return !!options.person;
        return !!auth && !!options.secrets[auth.name];
      }),
    );
    // Only the person's own account would do, and they have not connected it: ask them to.
    const perPerson = (alt: string[]) => alt.some((n) => options.schemes.get(n)?.kind === "per_person");
    if (!usable && !options.person && options.system && op.security.some(perPerson))
      throw new ConnectionRequiredError(options.system.id, options.system.title, "not connected yet");
    if (!usable)
      return `no secret is set for ${op.security.map((alt) => alt.map((n) => options.schemes.get(n)?.name ?? n).join(" + ")).join(" or ")}; an admin sets it on the connector's config page`;
    for (const scheme of usable) {
      const auth = options.schemes.get(scheme) as SchemeAuth;
      if (auth.kind === "per_person") {
        personal = true;
        headers.authorization = `Bearer ${options.person?.accessToken}`;
        continue;
      }
      const secret = options.secrets[auth.name] as string;
      if (auth.kind === "api_key") {
        if (auth.in === "header") headers[auth.param.toLowerCase()] = secret;
        else url.searchParams.set(auth.param, secret);
      } else if (auth.kind === "bearer") headers.authorization = `Bearer ${secret}`;
      else if (auth.kind === "basic")
        headers.authorization = `Basic ${Buffer.from(secret).toString("base64")}`;
      else headers.authorization = `Bearer ${await clientCredentialsToken(auth, secret)}`;
    }
    return null;
  }

  /** Whether the request being sent carries the person's own token (set by authenticate). */
  let personal = false;

  async function send(call: ApiCall): Promise<ApiAnswer> {
    personal = false;
    const url = operationUrl(options.baseUrl, call);
    if (typeof url === "string") return { kind: "refused", message: url };
    const headers: Record<string, string> = { accept: call.operation.accept ?? "application/json" };
    for (const [k, v] of Object.entries(call.headers)) {
      // fetch would throw on it before sending; as a typed refusal it can never read as "sent".
      if (CONTROL.test(v) || CONTROL.test(k))
        return { kind: "refused", message: `header ${k} contains a control character; nothing was sent` };
      headers[k.toLowerCase()] = v;
    }
    if (call.body !== undefined) headers["content-type"] = "application/json";
    if (call.idempotencyKey && call.idempotencyHeader)
      headers[call.idempotencyHeader.toLowerCase()] = call.idempotencyKey;
    let refused: string | null;
    try {
      refused = await authenticate(call.operation, url, headers);
    } catch (error) {
      return { kind: "unavailable", message: (error as Error).message };
    }
    if (refused) return { kind: "refused", message: refused };
    const write = call.operation.method !== "get";
    // The HTTP client checks headers before it connects (a credential's bytes included): such a refusal means
    // nothing left, and its text quotes the value, which may be a secret, so it is not repeated.
    try {
      new Headers(headers);
    } catch {
      return { kind: "refused", message: "a header value was refused by the HTTP client; nothing was sent" };
    }
    // The deadline covers the answer's body too; cleared once it is read (or the read failed).
    const deadline = requestDeadline(options.timeoutMs ?? OPENAPI_LIMITS.timeoutMs);
    let res: EgressAnswer;
    let read: { body: unknown; truncated: boolean };
    try {
      try {
        res = await egressRequest(url, {
          method: call.operation.method.toUpperCase(),
          headers,
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
          // A redirect could carry the credentials to another origin: never followed.
          redirect: "manual",
          signal: deadline.signal,
        });
      } catch (error) {
        // Refused by the egress policy or never connected: nothing was sent. The words are the same
        // for every cause (the reason is in the server log); which address is named.
        const sent = !(error instanceof EgressError) || error.sent;
        if (!sent || !write)
          return {
            kind: "unavailable",
            message: `the API at ${where(options.baseUrl)} did not answer: ${EGRESS_FAILURE}`,
          };
        return {
          kind: "unknown",
          message: `no answer from the API at ${where(options.baseUrl)} (${EGRESS_FAILURE}); the write may have happened`,
        };
      }
      try {
        read = await readBody(res);
      } catch {
        if (!write) return { kind: "unavailable", message: "the API's answer broke off" };
        return { kind: "unknown", message: "the API's answer broke off; the write may have happened" };
      }
    } finally {
      deadline.clear();
    }
    if (res.status >= 200 && res.status < 300)
      return { kind: "ok", status: res.status, ...read, link: res.header("link") };
    // The person's own token: refused means the connection is gone (they connect again); 403 is
    // their rights at the system, typed so the agent does not read it as a bad request.
    if (personal && options.system && (res.status === 401 || res.status === 403)) {
      if (res.status === 403) throw new UpstreamForbiddenError(options.system.id, options.system.title);
      await options.person?.refused();
      throw new ConnectionRequiredError(
        options.system.id,
        options.system.title,
        "the system no longer accepts the connection",
      );
    }
    // 503 and 429 say the request was not processed; a 502 or 504 from a proxy may hide a
    // write the API did apply, so for a write those are unknown like any other 5xx.
    if (res.status === 503 || res.status === 429 || (!write && res.status >= 500))
      return { kind: "unavailable", status: res.status, message: `the API answered HTTP ${res.status}` };
    if (res.status >= 500)
      return { kind: "unknown", message: `the API answered HTTP ${res.status}; the write may have happened` };
    return { kind: "error", status: res.status, body: read.body };
  }

  return { send };
}

export type ApiClient = ReturnType<typeof createApiClient>;
