// stays-whole: one request's path through /mcp (auth, body and batch bounds, rate limit, transport) read top
// to bottom; the helpers below are its own.
import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  createMcpHandler,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  hostHeaderValidationResponse,
  isJsonContentType,
  localhostAllowedHostnames,
  type McpServer,
  OAuthError,
  OAuthErrorCode,
  type OAuthTokenVerifier,
  originValidationResponse,
  verifyBearerToken,
} from "@modelcontextprotocol/server";
import type { RateDecision } from "@/server/gateway/rate-limiter";
import { REQUEST_ID_HEADER } from "@/server/gateway/request-id";
import { inSpan, remoteParent, SpanKind } from "@/server/telemetry/tracing";
import { type Face, facesOfKey, parseFaces } from "./faces";
import { answersLegacyInJson, serveLegacyAsJson } from "./legacy-json-leg";
import {
  exchangeOfRequest,
  jsonAnswer,
  type McpAnswer,
  type McpHttpRequest,
  toResponse,
} from "./mcp-http-exchange";
import { MODERN_PROTOCOL_VERSION, modernToolRoute, serveModernAsJson } from "./modern-json-leg";
import { registeredToolNames } from "./registered-tool-names";
import { answeredResult, answerWithResult, createToolListCache, toolsListRequest } from "./tool-list-cache";

/** A tool call the SDK answers itself with an error, before any handler of ours runs. */
export interface RefusedToolCall {
  tool: string;
  reason: "unknown_tool" | "arguments_not_object";
  arguments: unknown;
}

/**
 * What one request's server must hold. `resources: false` when every message of the request is a
 * `tools/call` or `tools/list`: such a server may leave its resources out (registering every
 * route as a resource template was about a third of a server's build, on every tool call).
 */
export interface ServerScope {
  resources: boolean;
  /**
   * True when the handler gives the server back once the exchange is over (`releaseServer`):
   * every message calls or lists tools, and the request is answered on the 2025 JSON leg or is
   * one 2026-07-28 request (modern-json-leg.ts). Such a server may be one that answered earlier
   * requests, and may answer later ones: its handlers read the caller from each request (`auth`),
   * never from the server. Never for the handshake, whose client capabilities a server keeps.
   */
  reusable: boolean;
  /**
   * The protocol era the server answers in. A server is bound to its era (a 2026-07-28 one also
   * serves `server/discover`), so kept servers are kept per era and never answer the other.
   */
  era: "legacy" | "modern";
}

/** What a valid agent key resolves to: the trusted context of every call it makes. */
export interface AgentIdentity<Ctx> {
  context: Ctx;
  /** Shown to the SDK as `authInfo.clientId`; never an authorization input of ours. */
  clientId: string;
  /** The faces an admin chose for this key; absent: the default faces, or those `?faces=` names. */
  faces?: readonly Face[];
}

/**
 * OAuth access tokens on `/mcp` (MCP authorization, RFC 9728): a caller without a credential is
 * told where the Protected Resource Metadata is; a bearer that is not an agent key is verified
 * by the SDK's `verifyBearerToken` with this verifier, whose AuthInfo carries the identity in
 * `extra.identity`.
 */
export interface McpOAuthOptions {
  verifier: OAuthTokenVerifier;
  /** This endpoint's resource identifier (RFC 8707): tokens for anything else are refused. */
  resource: URL;
  resourceMetadataUrl: string;
  /** The scope each face needs. */
  scopeOfFace(face: Face): string;
}

export interface McpHttpHandlerOptions<Ctx> {
  /** Resolves a bearer agent key; `null` for unknown or revoked keys. */
  authenticate(key: string): Promise<AgentIdentity<Ctx> | null>;
  /** Accept OAuth access tokens too (for the endpoint at this URL); omit for agent keys only. */
  oauth?: (endpoint: URL) => McpOAuthOptions;
  /**
   * The server that answers this request for this caller and face selection. `auth` is this
   * request's own object, the one each of its handlers is given as `ctx.http.authInfo`: where a
   * handler finds the request's caller.
   */
  createServer(
    context: Ctx,
    faces: Face[],
    request: McpHttpRequest,
    scope: ServerScope,
    auth: AuthInfo,
  ): McpServer | Promise<McpServer>;
  /**
   * Told of a server built for a `reusable` scope once its exchange is over: it may answer a later
   * request (never two at once). Omit and every request's server is left to the garbage collector.
   */
  releaseServer?: (server: McpServer) => void;
  /**
   * The server answering the protocol handshake without a key (`initialize`, `server/discover`,
   * `ping`): name, version and capabilities only, no tools or resources. Omit to require a key
   * for the handshake too.
   */
  createHandshakeServer?: () => McpServer;
  /**
   * The caller's call budget, checked after the key and before the SDK; omit for none. `calls`
   * is the number of JSON-RPC messages in the body, charged all at once.
   */
  rateLimit?: (context: Ctx, calls: number) => Promise<RateDecision> | RateDecision;
  /** Hostnames accepted in Host and Origin (DNS rebinding protection). Defaults to localhost names. */
  allowedHostnames?: string[];
  /**
   * Told of the tool calls in this body that the SDK refuses without reaching a handler (a tool
   * this caller's faces do not have, arguments that are not an object), so that they are on
   * record like every other call. Awaited before the response is returned.
   */
  onRefusedToolCalls?: (context: Ctx, calls: RefusedToolCall[]) => Promise<void>;
  onerror?: (error: Error) => void;
  /**
   * What the `tools/list` answer depends on for this caller (besides faces and protocol version);
   * with it, answers are kept (tool-list-cache.ts) and a later list for the same key costs no
   * server build. Omit to build every time.
   */
  toolListKey?: (context: Ctx) => string;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
/** What an agent key looks like (`sp_…`): anything else in the header is taken for an access token. */
const AGENT_KEY_SHAPE = /^sp_/;

/**
 * Largest request body read, in bytes: the SDK's own default (4 MiB), named here so that our
 * read and the SDK's agree. Tool arguments have their own, smaller bounds in the gateway.
 */
export const MAX_REQUEST_BODY_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE;

/**
 * Most JSON-RPC messages one POST may carry. Batches are a 2025-era feature no client of ours
 * needs for more than a handful of calls; the bound keeps one request's work (and the budget a
 * single request can spend at once) small. The SDK's own bound is 100.
 */
export const MAX_BATCH_MESSAGES = 50;

/**
 * The whole HTTP face of `/mcp`, runtime-neutral: `handle` (Request → Response) for the Next
 * route and tests, `handle.answer` for the node route of `serve`, which reads node's own request
 * and writes the handler's own answers without WHATWG objects; both run exactly the same code.
 * Order matters: DNS-rebinding checks come first (a hostile page must learn nothing),
 * then the key, then the SDK.
 */
export function createMcpHttpHandler<Ctx>(options: McpHttpHandlerOptions<Ctx>) {
  const allowed = options.allowedHostnames ?? allowedHostnamesFromEnv();
  const toolLists = createToolListCache();
  const sdkOptions = {
    legacy: "stateless",
    onerror: options.onerror,
    maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
  } as const;

  /**
   * What each request's server is built from, keyed by the `authInfo` object made for that
   * request alone: the SDK hands that very object to the factory (and to the tool handlers), never
   * one it derived from headers. The SDK's handler (its event bus, listen router and legacy leg)
   * is then built once, not per request, while every server instance is still the request's own:
   * the SDK connects one instance to one exchange's transport, and a shared instance would carry
   * one caller's tools into another's call. Entries go when their request's objects do.
   */
  const builds = new WeakMap<AuthInfo, () => McpServer | Promise<McpServer>>();
  const sdk = createMcpHandler(({ authInfo }) => {
    const build = authInfo && builds.get(authInfo);
    if (!build) throw new Error("an MCP server was asked for without a request of this handler");
    return build();
  }, sdkOptions);
  const handshakeSdk = options.createHandshakeServer
    ? createMcpHandler(options.createHandshakeServer, sdkOptions)
    : undefined;

  /**
   * The HTTP request's span (a child of the caller's `traceparent` header, if any): every span of
   * this request — identify, the MCP calls, their stages, queries and connector calls — is below it.
   */
  function answer(request: McpHttpRequest): Promise<McpAnswer> {
    const parent = remoteParent({
      traceparent: request.headers.get("traceparent") ?? undefined,
      tracestate: request.headers.get("tracestate") ?? undefined,
    });
    return inSpan(
      `${request.method} /mcp`,
      {
        "http.request.method": request.method,
        // The URL is built from the Host header: one that is no host ("local host", a port past
        // 65535) is refused below as the SDK refuses it, never a 500 here.
        "url.path": URL.canParse(request.url) ? new URL(request.url).pathname : "/mcp",
        "signpost.request_id": request.headers.get(REQUEST_ID_HEADER) ?? "",
      },
      async (span) => {
        const response = await handleRequest(request);
        span.setAttribute("http.response.status_code", response.status);
        return response;
      },
      { parent, kind: SpanKind.SERVER },
    );
  }

  async function handle(request: Request): Promise<Response> {
    return toResponse(await answer(exchangeOfRequest(request)));
  }

  return Object.assign(handle, { answer });

  async function handleRequest(request: McpHttpRequest): Promise<McpAnswer> {
    // The SDK's checks read only `headers.get("host")` and `headers.get("origin")`.
    const headersOnly = request as unknown as Request;
    const rejected =
      hostHeaderValidationResponse(headersOnly, allowed) ?? originValidationResponse(headersOnly, allowed);
    if (rejected) return rejected;

    // Stateless: no standalone SSE stream and no sessions to delete.
    if (request.method !== "POST") {
      return jsonRpcError(405, -32000, "Method not allowed.", { Allow: "POST" });
    }

    if (!URL.canParse(request.url))
      return jsonRpcError(400, -32600, "Invalid Request: the Host header is not a host.");
    const url = new URL(request.url);
    let faces = parseFaces(url.searchParams.get("faces"));
    if (!faces) {
      return jsonRpcError(
        400,
        -32602,
        "Unknown face: use faces=actions, faces=browse, faces=script, a comma-separated list of them, or faces=all.",
      );
    }

    // The body is read once, bounded, here: the budget needs its message count before the SDK
    // runs any of them. A body that is not JSON goes to the SDK unread, for its own answer.
    const body = await readJsonBody(request);
    if ("refusal" in body) return body.refusal;
    const parsed = body.parsed;
    if (Array.isArray(parsed?.value) && parsed.value.length > MAX_BATCH_MESSAGES)
      return jsonRpcError(
        413,
        -32600,
        `Invalid Request: a batch carries at most ${MAX_BATCH_MESSAGES} messages, this one ${parsed.value.length}; send fewer at a time.`,
      );
    const passOn = parsed ? { parsedBody: parsed.value } : {};
    const forward = body.forward;

    const authorization = request.headers.get("authorization");
    if (!authorization && handshakeSdk && parsed && isHandshakeOnly(parsed.value))
      return handshakeSdk.fetch(forward(), passOn);

    const match = BEARER.exec(authorization ?? "");
    const oauth = options.oauth?.(url);
    let identity: AgentIdentity<Ctx> | null = null;
    let authInfo: AuthInfo | undefined;
    if (match?.[1] && oauth && !AGENT_KEY_SHAPE.test(match[1])) {
      // An OAuth access token: with `faces` named, every face's scope is required (403
      // insufficient_scope names them); without, the faces the token's scopes allow.
      const explicit = url.searchParams.has("faces") ? faces.map(oauth.scopeOfFace) : [];
      const challenge = { resourceMetadataUrl: oauth.resourceMetadataUrl, requiredScopes: explicit };
      try {
        authInfo = await verifyBearerToken(authorization, {
          verifier: oauth.verifier,
          expectedResource: oauth.resource,
          ...challenge,
        });
      } catch (error) {
        return bearerAuthChallengeResponse(error, challenge);
      }
      faces = faces.filter((face) => authInfo?.scopes.includes(oauth.scopeOfFace(face)));
      if (faces.length === 0)
        return bearerAuthChallengeResponse(
          new OAuthError(OAuthErrorCode.InsufficientScope, "This token allows none of the MCP faces"),
          { ...challenge, requiredScopes: [oauth.scopeOfFace("actions")] },
        );
      identity = (authInfo.extra?.identity as AgentIdentity<Ctx> | undefined) ?? null;
    } else if (match?.[1]) {
      const key = match[1];
      identity = await inSpan("signpost.identify", {}, () => options.authenticate(key));
    }
    if (!identity) {
      const resource = `${url.origin}${url.pathname}`;
      const discovery = oauth
        ? `Bearer resource_metadata="${oauth.resourceMetadataUrl}", scope="${faces.map(oauth.scopeOfFace).join(" ")}"`
        : `Bearer realm="signpost", resource="${resource}"`;
      return jsonRpcError(
        401,
        -32001,
        match ? "Invalid or revoked agent key." : "Missing agent key or access token.",
        {
          // No error code without a credential (RFC 6750 §3.1): nothing was wrong, only missing.
          "WWW-Authenticate": match
            ? `${discovery}, error="invalid_token", error_description="The agent key is invalid or revoked"`
            : discovery,
        },
      );
    }

    // A key whose faces an admin chose gets those (or the ones asked for among them), only.
    if (identity.faces) {
      faces = facesOfKey(identity.faces, url.searchParams.has("faces") ? faces : null);
      if (faces.length === 0)
        return jsonRpcError(
          403,
          -32001,
          `This agent key has the faces ${identity.faces.join(", ")}; an admin chooses them on the console's Agents page.`,
        );
    }

    // Every JSON-RPC message costs one call (requests, notifications and responses alike, so a
    // single message costs what one request always did); a body the SDK will refuse costs one.
    // All are charged before any runs, and a batch that does not fit is refused whole.
    const calls = Array.isArray(parsed?.value) ? Math.max(1, parsed.value.length) : 1;
    const budget = await options.rateLimit?.(identity.context, calls);
    if (budget && !budget.ok) return rateLimited(budget, calls);

    const list = options.toolListKey && parsed ? toolsListRequest(parsed.value, request.headers) : null;
    const listKey =
      list && options.toolListKey
        ? `${options.toolListKey(identity.context)}|${faces.join(",")}|${list.shape}`
        : null;
    const listed = listKey ? toolLists.get(listKey) : undefined;
    if (listed !== undefined && list) return answerWithResult(list.id, listed);

    let tools: ReadonlySet<string> | undefined;
    const caller = identity.context;
    // This request's own object: the key of its build (above), and what handlers see as authInfo.
    const requestAuth: AuthInfo = authInfo
      ? { ...authInfo, token: "[access token]", extra: {} }
      : { token: "[agent key]", clientId: identity.clientId, scopes: [] };
    const toolsOnly = !!parsed && onlyToolMessages(parsed.value);
    // A request naming the modern revision is classified once: a modern route is one the SDK's
    // classifier called modern, so never legacy (its isLegacyRequest is the same classifier).
    const namesModern = request.headers.get("mcp-protocol-version") === MODERN_PROTOCOL_VERSION;
    const modernFirst =
      namesModern && toolsOnly && parsed ? modernToolRoute(request, parsed.value) : undefined;
    const legacyJson = !modernFirst && !!parsed && (await answersLegacyInJson(request, parsed.value));
    const modern = namesModern
      ? modernFirst
      : !legacyJson && toolsOnly && parsed
        ? modernToolRoute(request, parsed.value)
        : undefined;
    const release = (legacyJson || modern) && toolsOnly ? options.releaseServer : undefined;
    const scope: ServerScope = {
      resources: !toolsOnly,
      reusable: !!release,
      era: modern ? "modern" : "legacy",
    };
    const build = async () => {
      const server = await options.createServer(caller, faces, request, scope, requestAuth);
      tools ??= registeredToolNames(server);
      return server;
    };
    let response: McpAnswer;
    if (parsed && legacyJson)
      response = await serveLegacyAsJson(request, build, {
        authInfo: requestAuth,
        parsedBody: parsed.value,
        maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
        onerror: options.onerror,
        release,
      });
    else if (modern)
      response = await serveModernAsJson(request, modern, build, {
        authInfo: requestAuth,
        onerror: options.onerror,
        release,
        viaSdk: () => {
          builds.set(requestAuth, build);
          return sdk.fetch(forward(), { ...passOn, authInfo: requestAuth });
        },
      });
    else {
      builds.set(requestAuth, build);
      response = await sdk.fetch(forward(), { ...passOn, authInfo: requestAuth });
    }
    const refused = tools && parsed ? refusedToolCalls(parsed.value, tools) : [];
    if (refused.length > 0) await options.onRefusedToolCalls?.(caller, refused);
    if (listKey) {
      const result = await answeredResult(response);
      if (result !== undefined) toolLists.set(listKey, result);
    }
    return response;
  }
}

// Lifecycle messages that reveal nothing but the server's name, version and capabilities.
const HANDSHAKE_METHODS = new Set(["initialize", "notifications/initialized", "server/discover", "ping"]);

type JsonBody = { parsed?: { value: unknown }; forward: () => Request } | { refusal: McpAnswer };

/**
 * The POST body, parsed, read at most MAX_REQUEST_BODY_BYTES (413 beyond, as the SDK answers).
 * `parsed` is absent where the SDK must answer itself (not JSON by its Content-Type, or not
 * valid JSON); `forward` then makes the request to hand it, with its body still to read. The
 * request's own body is read, not a clone of it: a clone tees the body into two streams, and
 * every parsed body reaches the SDK as `parsedBody`, which it does not read again. `forward`
 * makes a WHATWG Request only when called: only where the SDK serves the request.
 */
async function readJsonBody(request: McpHttpRequest): Promise<JsonBody> {
  const forward = () => request.toRequest();
  if (!isJsonContentType(request.headers.get("content-type"))) return { forward };
  let read: Awaited<ReturnType<McpHttpRequest["readBody"]>>;
  try {
    read = await request.readBody(MAX_REQUEST_BODY_BYTES);
  } catch {
    return { refusal: jsonRpcError(400, -32700, "Parse error: the request body could not be read") };
  }
  if (read.tooLarge)
    return {
      refusal: jsonRpcError(
        413,
        -32000,
        `Payload Too Large: Request body must not exceed ${MAX_REQUEST_BODY_BYTES} bytes`,
      ),
    };
  const { text } = read;
  try {
    if (text) return { parsed: { value: JSON.parse(text) as unknown }, forward };
  } catch {
    // not JSON: the SDK answers it, from the text read here
  }
  return { forward: () => request.toRequest(text) };
}

/** The `tools/call` requests in a body that no handler of `tools` will see. */
function refusedToolCalls(body: unknown, tools: ReadonlySet<string>): RefusedToolCall[] {
  const refused: RefusedToolCall[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    const m = message as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null;
    if (!m || typeof m !== "object" || m.method !== "tools/call") continue;
    const name = typeof m.params?.name === "string" ? m.params.name : "";
    const args = m.params?.arguments;
    if (!tools.has(name)) refused.push({ tool: name, reason: "unknown_tool", arguments: args ?? {} });
    else if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args)))
      refused.push({ tool: name, reason: "arguments_not_object", arguments: { arguments: args } });
  }
  return refused;
}

const TOOL_METHODS = new Set(["tools/call", "tools/list"]);

/** True when every JSON-RPC message in the body calls or lists tools. */
function onlyToolMessages(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return (
    messages.length > 0 &&
    messages.every(
      (m) => !!m && typeof m === "object" && TOOL_METHODS.has(String((m as { method?: unknown }).method)),
    )
  );
}

/** True when every JSON-RPC message in the body is part of the handshake. */
function isHandshakeOnly(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return (
    messages.length > 0 &&
    messages.every(
      (m) =>
        !!m && typeof m === "object" && HANDSHAKE_METHODS.has(String((m as { method?: unknown }).method)),
    )
  );
}

function allowedHostnamesFromEnv(): string[] {
  const extra = (process.env.SIGNPOST_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((host) => host.trim())
    .filter(Boolean);
  // The public URL people and hosts use is allowed too, so a deployment only sets one variable.
  try {
    if (process.env.SIGNPOST_PUBLIC_URL) extra.push(new URL(process.env.SIGNPOST_PUBLIC_URL).hostname);
  } catch {
    // an invalid SIGNPOST_PUBLIC_URL adds nothing
  }
  return [...localhostAllowedHostnames(), ...extra];
}

/**
 * 429 with Retry-After, and the typed outcome in the JSON-RPC error's `data` so an agent that
 * only sees the error still learns it may retry and when.
 */
function rateLimited(decision: Extract<RateDecision, { ok: false }>, calls: number) {
  const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  const message = decision.exceedsBudget
    ? `${calls} calls in one request are more than this agent key's whole budget; send fewer at a time.`
    : `Too many calls with this agent key${calls > 1 ? ` (this request carries ${calls})` : ""}; retry in ${seconds} s.`;
  return jsonRpcError(
    429,
    -32000,
    message,
    { "Retry-After": String(seconds) },
    {
      outcome: "temporarily_unavailable",
      reason: "rate_limited",
      message,
      retryable: !decision.exceedsBudget,
      retry_after_s: seconds,
      next_actions: [],
    },
  );
}

function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  data?: Record<string, unknown>,
): McpAnswer {
  const lower = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  return jsonAnswer(
    status,
    JSON.stringify({ jsonrpc: "2.0", error: { code, message, ...(data ? { data } : {}) }, id: null }),
    lower,
  );
}
