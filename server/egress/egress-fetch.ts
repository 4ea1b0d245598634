import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { readFileSync } from "node:fs";
import { rootCertificates } from "node:tls";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import { logger } from "../logger";
import { inSpan, outgoingTraceHeaders, SpanKind } from "../telemetry/tracing";
import { egressRefusal, literalAddress, refusedName } from "./egress-policy";

/**
 * The one sentence every refused or failed outbound request is answered with, whatever the
 * reason (refused address, closed port, timeout, TLS, DNS, an unexpected redirect): a caller that
 * can choose the URL learns nothing about what listens where. The reason goes to the server log.
 */
export const EGRESS_FAILURE = "the address could not be reached";

/** An outbound request that failed or was refused; its message is always EGRESS_FAILURE. */
export class EgressError extends Error {
  override name = "EgressError";
  constructor(
    /** True when bytes of the request may have reached a server (a write may have happened). */
    readonly sent: boolean,
    /** True when the caller's deadline passed (the request may still be in flight). */
    readonly timedOut = false,
  ) {
    super(EGRESS_FAILURE);
  }
}

const REFUSED = "EGRESS_REFUSED";

function refusedError(reason: string): Error {
  return Object.assign(new Error(`egress refused: ${reason}`), { code: REFUSED });
}

function defaultPort(protocol: string, port: string | number | undefined): number {
  const n = Number(port);
  if (Number.isInteger(n) && n > 0) return n;
  return protocol === "https:" ? 443 : 80;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for net/tls.connect that resolves the name and refuses the connection unless every
 * address it resolved to passes the policy: the check is made on the address actually dialled,
 * so a name that answered a public address to the pre-check and a private one now (DNS
 * rebinding) is refused here.
 */
function checkedLookup(host: string, port: number, protocol: string) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const refusal = list.map((a) => egressRefusal(host, a.address, port, protocol)).find(Boolean);
      if (refusal || list.length === 0)
        return callback(refusedError(refusal ?? "no address") as NodeJS.ErrnoException, []);
      if (options.all) return callback(null, list);
      const first = list[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

let extraCa: { file: string; ca: string[] } | undefined;

/**
 * The certificate authorities TLS trusts: Node's own, plus the one an operator names in
 * `SIGNPOST_EGRESS_CA_FILE` (a company's internal identity provider or API behind a private CA),
 * read again only when the variable changes.
 */
function trustedCas(): string[] | undefined {
  const file = process.env.SIGNPOST_EGRESS_CA_FILE;
  if (!file) return undefined;
  if (extraCa?.file !== file) extraCa = { file, ca: [...rootCertificates, readFileSync(file, "utf8")] };
  return extraCa.ca;
}

/** Connections only through the policy: literal addresses checked here, names in the lookup (exported for tests). */
export const egressDispatcher = new Agent({
  connect(options, callback) {
    const protocol = options.protocol ?? "http:";
    const port = defaultPort(protocol, options.port);
    const literal = literalAddress(options.hostname);
    const refusal = literal
      ? egressRefusal(options.hostname, literal, port, protocol)
      : refusedName(options.hostname);
    if (refusal) {
      callback(refusedError(refusal), null);
      return;
    }
    const ca = trustedCas();
    const connector = buildConnector({
      timeout: 10_000,
      ...(ca ? { ca } : {}),
      // biome-ignore lint/suspicious/noExplicitAny: net's lookup type is narrower than the callback form Node calls
      lookup: checkedLookup(options.hostname, port, protocol) as any,
    } as buildConnector.BuildOptions);
    connector(options, callback);
  },
});

function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses as LookupAddress[]),
    ),
  );
}

/** Why the URL may not be fetched at all (scheme, credentials in it, refused name or address), or null. */
export async function egressUrlRefusal(url: URL): Promise<string | null> {
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${url.protocol} is not http(s)`;
  if (url.username || url.password) return "the URL carries credentials";
  const port = defaultPort(url.protocol, url.port);
  const literal = literalAddress(url.hostname);
  if (literal) return egressRefusal(url.hostname, literal, port, url.protocol);
  const named = refusedName(url.hostname);
  if (named) return named;
  const addresses = await resolveAll(url.hostname);
  if (addresses.length === 0) return "the name has no address";
  return (
    addresses.map((a) => egressRefusal(url.hostname, a.address, port, url.protocol)).find(Boolean) ?? null
  );
}

export type EgressInit = Omit<RequestInit, "redirect"> & {
  /**
   * `error` (default): a redirect is a failure. `manual`: a 3xx is returned as it is. `follow`:
   * up to 5 hops for GET/HEAD, each checked by the policy like the first; credentials headers are
   * dropped when a hop leaves the origin.
   */
  redirect?: "error" | "manual" | "follow";
};

const MAX_REDIRECTS = 5;
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/** Why an outbound request was refused or failed, for the server log only. */
export function logEgress(url: URL, reason: string, error?: unknown) {
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  logger.warn(
    {
      egress: {
        origin: url.origin,
        reason,
        error: error ? `${(error as Error).name}: ${(error as Error).message}` : undefined,
        cause: cause ? `${cause.code ?? ""} ${cause.message ?? ""}`.trim() : undefined,
      },
    },
    "outbound request refused or failed",
  );
}

/**
 * One hop as a client span, with the active trace context sent on (`traceparent`), so a system
 * that traces too joins the caller's trace. Without tracing, the request goes out unchanged.
 */
function tracedFetchOnce(url: URL, init: EgressInit): Promise<Response> {
  const method = (init.method ?? "GET").toUpperCase();
  return inSpan(
    `HTTP ${method}`,
    { "http.request.method": method, "server.address": url.hostname, "url.path": url.pathname },
    async (span) => {
      const trace = outgoingTraceHeaders();
      let sent = init;
      if (trace.traceparent) {
        const headers = new Headers(init.headers);
        for (const [name, value] of Object.entries(trace)) headers.set(name, value);
        sent = { ...init, headers };
      }
      const response = await fetchOnce(url, sent);
      span.setAttribute("http.response.status_code", response.status);
      return response;
    },
    { kind: SpanKind.CLIENT },
  );
}

/**
 * Throws the EgressError of a URL the policy refuses before anything is sent (scheme, credentials,
 * refused name, or any address it resolves to); the reason goes to the log.
 */
export async function assertEgressAllowed(url: URL): Promise<void> {
  let refusal: string | null;
  try {
    refusal = await egressUrlRefusal(url);
  } catch (error) {
    logEgress(url, "lookup failed", error);
    throw new EgressError(false);
  }
  if (refusal) {
    logEgress(url, refusal);
    throw new EgressError(false);
  }
}

/**
 * The EgressError for a request that failed in the HTTP client (fetch wraps the cause, undici's
 * request throws it as it is), logged: whether bytes may have left, and whether the caller's
 * deadline passed.
 */
export function egressFailure(url: URL, error: unknown): EgressError {
  const e = error as { name?: string; code?: unknown; cause?: { code?: string } };
  const code = e.cause?.code ?? (typeof e.code === "string" ? e.code : "");
  // Nothing left this machine when the policy or the connection refused it.
  const sent = !(
    code === REFUSED ||
    code === "ECONNREFUSED" ||
    code === "ENOTFOUND" ||
    code === "EAI_AGAIN" ||
    code === "UND_ERR_CONNECT_TIMEOUT"
  );
  const timedOut = e.name === "TimeoutError" || e.name === "AbortError" || code === "UND_ERR_ABORTED";
  logEgress(url, code === REFUSED ? "refused at connect time" : "request failed", error);
  return new EgressError(sent, timedOut);
}

async function fetchOnce(url: URL, init: EgressInit): Promise<Response> {
  await assertEgressAllowed(url);
  try {
    const response = await undiciFetch(url, {
      ...(init as Record<string, unknown>),
      redirect: "manual",
      dispatcher: egressDispatcher,
    });
    return response as unknown as Response;
  } catch (error) {
    throw egressFailure(url, error);
  }
}

/**
 * Every request the server makes goes through here: import by URL, a connector's calls and its
 * token endpoint, "Test connection", health probes. The URL's name is resolved and every address
 * checked by the egress policy before sending, checked again on the address the connection is
 * made to, and redirects are re-checked hop by hop (or refused). Any failure throws an
 * EgressError whose message is EGRESS_FAILURE.
 */
export async function egressFetch(input: string | URL, init: EgressInit = {}): Promise<Response> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new EgressError(false);
  }
  const mode = init.redirect ?? "error";
  let current = init;
  for (let hop = 0; ; hop++) {
    const response = await tracedFetchOnce(url, current);
    if (response.status < 300 || response.status > 399 || mode === "manual") return response;
    const location = response.headers.get("location");
    await response.body?.cancel().catch(() => undefined);
    const method = (current.method ?? "GET").toUpperCase();
    if (mode === "error" || !location || hop >= MAX_REDIRECTS || (method !== "GET" && method !== "HEAD")) {
      logEgress(url, `redirect not followed (HTTP ${response.status})`);
      throw new EgressError(true);
    }
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      logEgress(url, "redirect to an invalid URL");
      throw new EgressError(true);
    }
    if (next.origin !== url.origin) {
      const headers = new Headers(current.headers);
      for (const name of CREDENTIAL_HEADERS) headers.delete(name);
      current = { ...current, headers };
    }
    url = next;
  }
}
