import {
  type AuthInfo,
  isInitializeRequest,
  isJSONRPCRequest,
  isJsonContentType,
  isLegacyRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type McpServer,
  parseJSONRPCMessage,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
  type TransportSendOptions,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { jsonAnswer, type McpAnswer, type McpHttpRequest, type PlainAnswer } from "./mcp-http-exchange";

/**
 * Whether a 2025-era (legacy) POST can be answered with one JSON body instead of an SSE stream
 * (Streamable HTTP lets the server choose either for a request): the body is a request or a batch
 * of them in which nobody asked for progress (`_meta.progressToken`), and the request is classified
 * legacy exactly as the SDK's entry classifies it. A legacy exchange is stateless here (a server
 * instance per request, no client capabilities remembered), so no tool can elicit or sample
 * mid-call; a progress token is the one thing a client can ask for that only a stream delivers.
 * Everything else (the modern 2026-07-28 path, bodies the SDK must refuse) stays with the SDK's
 * own handler, which answers modern calls in JSON by itself unless a call emits a message first.
 */
export async function answersLegacyInJson(
  request: Pick<McpHttpRequest, "method" | "headers">,
  body: unknown,
): Promise<boolean> {
  if (!(request.headers.get("accept") ?? "").includes("application/json")) return false;
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return false;
  for (const message of messages) {
    if (!message || typeof message !== "object") return false;
    const params = (message as { params?: { _meta?: { progressToken?: unknown } } }).params;
    if (params?._meta?.progressToken !== undefined) return false;
  }
  if (isPlainLegacyRequest(request, body)) return true;
  // With the body given, the SDK's classifier reads only the method and headers (no body, no clone).
  return isLegacyRequest(request as Request, body);
}

const REQUEST_MEMBERS = new Set(["jsonrpc", "id", "method", "params"]);

/**
 * A message the SDK's JSON-RPC request schema accepts, told without running it: the schema is a
 * strict object (`jsonrpc` "2.0", an id that is a string or an integer, a method, params an
 * object), and what it accepts of `params._meta` is left to it (a message with `_meta` is not
 * called plain). False means "ask the schema", never "not a request". The schema's type guards
 * cost ~2 µs when they accept and 10–20 µs when they refuse (zod builds the issues): on this leg
 * a request met six of them, four refusing.
 */
export function isPlainRequest(message: unknown): message is JSONRPCRequest {
  if (!message || typeof message !== "object" || Array.isArray(message)) return false;
  for (const member in message) if (!REQUEST_MEMBERS.has(member)) return false;
  const m = message as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  if (m.jsonrpc !== "2.0" || typeof m.method !== "string") return false;
  if (typeof m.id !== "string" && !Number.isInteger(m.id)) return false;
  if (m.params === undefined) return true;
  if (!m.params || typeof m.params !== "object" || Array.isArray(m.params)) return false;
  return (m.params as { _meta?: unknown })._meta === undefined;
}

/**
 * True where the SDK's classifier (`isLegacyRequest`) certainly says legacy, told without it: one
 * plain request (isPlainRequest), not the handshake, so no per-request envelope claim, and an
 * MCP-Protocol-Version header that is absent or names a 2025-era version. False: ask the SDK.
 */
export function isPlainLegacyRequest(request: Pick<McpHttpRequest, "headers">, body: unknown): boolean {
  if (!isPlainRequest(body) || body.method === "initialize") return false;
  const version = request.headers.get("mcp-protocol-version");
  return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version.replace(/^[ \t]+|[ \t]+$/g, ""));
}

/** The SDK's bound on a batch (its MAX_BATCH_SIZE, not exported); the handler's own is smaller. */
const SDK_MAX_BATCH = 100;

type Extra = { authInfo: AuthInfo; request: Request };
type ScopeResolver = (context: { request: JSONRPCRequest; authInfo?: AuthInfo }) => unknown;

/**
 * One JSON exchange on the SDK's Server: the transport's half of the 2025 stateless leg with
 * `enableJsonResponse` (WebStandardStreamableHTTPServerTransport.handlePostRequest: the same
 * checks, words, codes and answer shapes, in its order), without its WHATWG Request and Response.
 * The server calls `setSupportedProtocolVersions` and `setScopeChallengeResolver` on connect.
 */
class JsonExchangeTransport implements Transport {
  onmessage?: Transport["onmessage"];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  sessionId = undefined;
  supportedVersions: string[] = [...SUPPORTED_PROTOCOL_VERSIONS];
  scopeChallenge?: ScopeResolver;
  private readonly ids = new Set<string | number>();
  private readonly answers = new Map<string | number, JSONRPCMessage>();
  private answered?: (answers: JSONRPCMessage[]) => void;
  private closed = false;

  setSupportedProtocolVersions(versions: string[]): void {
    this.supportedVersions = versions;
  }
  setScopeChallengeResolver(resolver: ScopeResolver): void {
    this.scopeChallenge = resolver;
  }
  async start(): Promise<void> {}
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  /** As the SDK's JSON mode: answers collected until every request of the body has one; the rest dropped. */
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // What the server sends is well-formed JSON-RPC of its own making: a response is the message
    // with a result or an error (the SDK's guards re-parse it with zod: ~1% of a call's CPU).
    const response = "result" in message || "error" in message;
    const id = response ? (message as { id: string | number }).id : options?.relatedRequestId;
    if (id === undefined) {
      if (response)
        throw new Error(
          "Cannot send a response on a standalone SSE stream unless resuming a previous client request",
        );
      return; // no standalone stream in a stateless exchange
    }
    if (!this.ids.has(id)) throw new Error(`No connection established for request ID: ${String(id)}`);
    if (!response) return; // JSON mode: a notification or request about a call is not delivered
    this.answers.set(id, message);
    if (this.answers.size === this.ids.size)
      this.answered?.([...this.ids].map((each) => this.answers.get(each) as JSONRPCMessage));
  }

  /**
   * The messages dispatched; resolves with their answers in the order of the requests. A plain
   * request goes straight to the server's request dispatch (`deliver`), which is where the
   * server's own `onmessage` sends it after its three type guards (isPlainRequest: certainly a
   * request, so certainly neither response kind).
   */
  dispatch(
    messages: JSONRPCMessage[],
    extra: Extra,
    deliver?: (request: JSONRPCRequest, extra: Extra) => void,
  ): Promise<JSONRPCMessage[]> {
    return new Promise((resolve) => {
      this.answered = resolve;
      const requests = messages.map((message) => isPlainRequest(message) || isJSONRPCRequest(message));
      for (const [i, message] of messages.entries())
        if (requests[i]) this.ids.add((message as JSONRPCRequest).id);
      for (const message of messages)
        if (deliver && isPlainRequest(message)) deliver(message, extra);
        else this.onmessage?.(message, extra as never);
    });
  }
}

/** The SDK transport's createJsonErrorResponse. */
function transportError(status: number, code: number, message: string, data?: string): PlainAnswer {
  const error = data === undefined ? { code, message } : { code, message, data };
  return jsonAnswer(status, JSON.stringify({ jsonrpc: "2.0", error, id: null }));
}

/**
 * One legacy exchange answered as JSON: the SDK's stateless idiom (a fresh server for one
 * exchange, no sessions) with JSON answers, so the answer is one body the route writes at once.
 * The exchange is the SDK transport's own, step for step (JsonExchangeTransport), on the request
 * as the handler read it: building a WHATWG Request for it, a Response for the answer and reading
 * that back cost ~8% of serve's CPU per tool call. Handlers see that request as `ctx.http.req`
 * (method, url, headers.get, signal: all any of them, or the SDK, reads). A body whose requests
 * a tool's scope challenge stops goes to the SDK's own transport, which answers it (none of our
 * tools declares one). A finished exchange holds nothing and is left to the garbage collector;
 * a client that leaves mid-call closes it, which aborts the running handler (a script run stops).
 */
export async function serveLegacyAsJson(
  request: McpHttpRequest,
  build: () => McpServer | Promise<McpServer>,
  options: {
    authInfo: AuthInfo;
    parsedBody: unknown;
    maxRequestBodySize: number;
    onerror?: (error: Error) => void;
    /**
     * Told of the server once its exchange is over (every answer given, the client still there):
     * it may answer another request. A server whose client left mid-call is never given back.
     */
    release?: (server: McpServer) => void;
  },
): Promise<McpAnswer> {
  let server: McpServer;
  const transport = new JsonExchangeTransport();
  try {
    server = await build();
    await server.connect(transport);
  } catch (error) {
    // As the SDK's own leg answers a factory that failed: reported, and a JSON-RPC internal error.
    options.onerror?.(error instanceof Error ? error : new Error(String(error)));
    return internalError(options.parsedBody);
  }

  let answered: Promise<McpAnswer>;
  try {
    const checked = await checkAndDispatch(request, transport, build, options, requestDispatchOf(server));
    if (!("pending" in checked)) {
      giveBack(server, transport, options.release);
      return checked;
    }
    answered = checked.pending;
  } catch (error) {
    // As the SDK's transport answers anything its POST handling threw.
    transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
    return transportError(400, -32700, "Parse error", String(error));
  }
  const signal = request.signal;
  let onAbort: (() => void) | undefined;
  let left = false;
  // An exchange whose client left never resolves: the caller gets an empty answer it no longer
  // waits for, and nothing is left pending.
  const gone = new Promise<McpAnswer>((resolve) => {
    onAbort = () => {
      left = true;
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
      resolve({ status: 499, headers: {}, body: null });
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const answer = await Promise.race([answered, gone]);
    if (!left) giveBack(server, transport, options.release);
    return answer;
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

/**
 * The server's request dispatch (the SDK Protocol's `_onrequest`, private to its typings), where
 * its `onmessage` sends every message its type guards call a request; undefined if it has none.
 */
function requestDispatchOf(server: McpServer): ((request: JSONRPCRequest, extra: Extra) => void) | undefined {
  const protocol = server.server as unknown as {
    _onrequest?: (request: JSONRPCRequest, extra: Extra) => void;
  };
  const onrequest = protocol._onrequest;
  return typeof onrequest === "function"
    ? (request, extra) => onrequest.call(protocol, request, extra)
    : undefined;
}

/**
 * A finished exchange's server, disconnected and handed back: on the next turn of the event loop,
 * once the SDK has settled its bookkeeping of the answered calls (closing before that would abort
 * the signals of calls that already answered).
 */
function giveBack(
  server: McpServer,
  transport: JsonExchangeTransport,
  release: ((server: McpServer) => void) | undefined,
): void {
  if (!release) return;
  setImmediate(() => {
    // Closing makes the SDK build a "Connection closed" error for calls still in flight (none
    // here: every one was answered) and throw it away; its stack trace was ~1% of a tool call's
    // CPU. The error is made synchronously inside close(), so no stack is taken for it alone.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    let closed: Promise<void>;
    try {
      closed = transport.close();
    } finally {
      Error.stackTraceLimit = limit;
    }
    void closed.then(
      () => release(server),
      () => undefined,
    );
  });
}

/**
 * handlePostRequest's checks, in its order, then the messages dispatched: a refusal, the 202 of
 * a body without requests, or the answer to come.
 */
async function checkAndDispatch(
  request: McpHttpRequest,
  transport: JsonExchangeTransport,
  build: () => McpServer | Promise<McpServer>,
  options: { authInfo: AuthInfo; parsedBody: unknown; maxRequestBodySize: number },
  deliver?: (request: JSONRPCRequest, extra: Extra) => void,
): Promise<McpAnswer | { pending: Promise<McpAnswer> }> {
  // Told to the transport's onerror, which the server wired on connect (as the SDK's transport does).
  const refuse = (status: number, code: number, message: string, error: unknown = new Error(message)) => {
    transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
    return transportError(status, code, message);
  };
  const accept = request.headers.get("accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream"))
    return refuse(
      406,
      -32000,
      "Not Acceptable: Client must accept both application/json and text/event-stream",
    );
  if (!isJsonContentType(request.headers.get("content-type")))
    return refuse(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
  const raw = options.parsedBody;
  if (Array.isArray(raw) && raw.length > SDK_MAX_BATCH)
    return refuse(400, -32600, `Invalid Request: Batch must not exceed ${SDK_MAX_BATCH} messages`);
  let messages: JSONRPCMessage[];
  try {
    // A plain request is one the schema accepts as it is (parsing would only copy it).
    messages = (Array.isArray(raw) ? raw : [raw]).map((message) =>
      isPlainRequest(message) ? message : parseJSONRPCMessage(message),
    );
  } catch (error) {
    return refuse(400, -32700, "Parse error: Invalid JSON-RPC message", error);
  }
  // The method first: the guard's full parse (zod) only for what can be an initialize request.
  if (
    messages.some(
      (message) => "method" in message && message.method === "initialize" && isInitializeRequest(message),
    )
  ) {
    if (messages.length > 1)
      return refuse(400, -32600, "Invalid Request: Only one initialization request is allowed");
  } else {
    const version = request.headers.get("mcp-protocol-version");
    if (version !== null && !transport.supportedVersions.includes(version))
      return refuse(
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${transport.supportedVersions.join(", ")})`,
      );
  }
  const requests = messages.filter(
    (message): message is JSONRPCRequest => isPlainRequest(message) || isJSONRPCRequest(message),
  );
  if (transport.scopeChallenge) {
    try {
      for (const message of requests)
        if ((await transport.scopeChallenge({ request: message, authInfo: options.authInfo })) !== undefined)
          return sdkTransport(request, build, options);
    } catch (error) {
      return refuse(500, -32603, "Internal server error", error);
    }
  }
  // The SDK's transport hands handlers its Request; this one, the request as the handler read it.
  const extra: Extra = { authInfo: options.authInfo, request: request as unknown as Request };
  if (requests.length === 0) {
    for (const message of messages) transport.onmessage?.(message, extra as never);
    return { status: 202, headers: {}, body: null };
  }
  const pending = transport
    .dispatch(messages, extra, deliver)
    .then(
      (answers): McpAnswer => jsonAnswer(200, JSON.stringify(answers.length === 1 ? answers[0] : answers)),
    );
  return { pending };
}

/** The SDK's own JSON transport, for a body a scope challenge stops (it answers the challenge). */
async function sdkTransport(
  request: McpHttpRequest,
  build: () => McpServer | Promise<McpServer>,
  options: { authInfo: AuthInfo; parsedBody: unknown; maxRequestBodySize: number },
): Promise<McpAnswer> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: options.maxRequestBodySize,
  });
  await (await build()).connect(transport);
  return transport.handleRequest(request.toRequest(), {
    authInfo: options.authInfo,
    parsedBody: options.parsedBody,
  });
}

function internalError(body: unknown): PlainAnswer {
  const id = (body as { id?: unknown } | null)?.id;
  return jsonAnswer(
    500,
    JSON.stringify({
      jsonrpc: "2.0",
      error: { code: -32603, message: "Internal server error" },
      id: !Array.isArray(body) && (typeof id === "string" || typeof id === "number") ? id : null,
    }),
  );
}
