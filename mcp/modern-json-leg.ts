import {
  type AuthInfo,
  classifyInboundRequest,
  type InboundModernRoute,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type McpServer,
  PerRequestHTTPServerTransport,
  SdkError,
  SdkErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  type TransportSendOptions,
} from "@modelcontextprotocol/server";
import { jsonAnswer, type McpAnswer, type McpHttpRequest, type PlainAnswer } from "./mcp-http-exchange";

/**
 * The 2026-07-28 revision, the one modern revision the SDK (2.4.0) serves: its requests are
 * answered here; a request naming any other is left to the SDK, which refuses it.
 */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/**
 * What a server answering on this leg is built with: the revision among its supported versions,
 * placed as the SDK's `createMcpHandler` places it on the servers it serves modern requests with
 * (after the 2025 ones), so that the server binds itself to the request's revision when it is
 * connected to the request's transport, and answers `server/discover` as theirs do.
 */
export function modernServerOptions(): { supportedProtocolVersions: string[] } {
  return { supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION] };
}

/** A modern request the leg below may answer: one message, a request, on the revision above. */
export type ModernRequestRoute = Extract<InboundModernRoute, { messageKind: "request" }>;

const BASE64_SENTINEL = /^=\?base64\?.*\?=$/s;

/**
 * The SDK's classification of a `tools/call` or `tools/list` POST on the 2026-07-28 revision
 * (`classifyInboundRequest`, the very function its `createMcpHandler` routes with), when the
 * request also passes the SDK's standard-header rung: the MCP-Protocol-Version and Mcp-Method
 * headers present (the classifier has compared their values with the body), and for a call an
 * Mcp-Name header naming the tool exactly as the body does. Anything else — other methods,
 * notifications, batches, a ladder rejection, a Base64-encoded Mcp-Name — is undefined: the
 * SDK's own handler answers it, refusals included, so every such answer stays the SDK's.
 */
export function modernToolRoute(
  request: Pick<McpHttpRequest, "method" | "headers">,
  body: unknown,
): ModernRequestRoute | undefined {
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  const method = (body as { method?: unknown }).method;
  if (method !== "tools/call" && method !== "tools/list") return undefined;
  const version = request.headers.get("mcp-protocol-version") ?? undefined;
  const methodHeader = request.headers.get("mcp-method") ?? undefined;
  if (version === undefined || methodHeader === undefined) return undefined;
  const nameHeader = request.headers.get("mcp-name") ?? undefined;
  const route = classifyInboundRequest({
    httpMethod: request.method,
    protocolVersionHeader: version,
    mcpMethodHeader: methodHeader,
    mcpNameHeader: nameHeader,
    body,
  });
  if (route.kind !== "modern" || route.messageKind !== "request") return undefined;
  if (route.classification.revision !== MODERN_PROTOCOL_VERSION) return undefined;
  if (method === "tools/call") {
    const name = (route.message.params as { name?: unknown } | undefined)?.name;
    const header = nameHeader?.replace(/^[ \t]+|[ \t]+$/g, "");
    if (typeof name !== "string" || header !== name || BASE64_SENTINEL.test(header)) return undefined;
  }
  return route;
}

/** The SDK transport's fields this subclass reads (JavaScript properties; private only to TypeScript). */
interface TransportState {
  _closed: boolean;
  _requestId?: string | number;
  _terminalDelivered: boolean;
  _responseMode: "auto" | "json" | "sse";
  _sse?: unknown;
  settleResponse(answer: unknown): void;
}

/**
 * The SDK's per-request transport (so the server binds itself to the request's revision on
 * connect, as it does for the SDK's own), answering the one case that makes up nearly all
 * traffic — the request's result, in JSON, nothing streamed before it — with the answer the
 * route writes as it is, instead of a WHATWG Response. Everything else (errors, whose HTTP
 * status the SDK's ladder decides; a result after a notification, sent as an event stream; a
 * closed exchange) is the SDK's own `send`.
 */
class ModernExchangeTransport extends PerRequestHTTPServerTransport {
  /**
   * Called once the exchange is closed, with whether its result was delivered and whether a turn
   * of the event loop has passed since (the SDK's bookkeeping of the answered call is settled).
   */
  onExchangeClosed?: (delivered: boolean, settled: boolean) => void;
  private closedAfterTurn = false;

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const state = this as unknown as TransportState;
    if (
      !state._closed &&
      state._sse === undefined &&
      state._responseMode === "auto" &&
      !state._terminalDelivered &&
      "result" in message &&
      message.id === state._requestId
    ) {
      // As the SDK's own JSON answer: Response.json(message, { status: 200 }), then closed — on
      // the next turn of the event loop, as on the 2025 leg, not a microtask later: by then the
      // SDK has settled its bookkeeping of the answered call, so closing does not abort the
      // finished handler's signal (an Event dispatched for nothing on every call).
      state._terminalDelivered = true;
      state.settleResponse(jsonAnswer(200, JSON.stringify(message)));
      setImmediate(() => {
        this.closedAfterTurn = true;
        void this.close();
      });
      return;
    }
    return super.send(message, options);
  }

  override async close(): Promise<void> {
    const state = this as unknown as TransportState;
    const wasClosed = state._closed;
    // Closing makes the server build a "Connection closed" error for calls still in flight (none
    // once the answer is delivered) and throw it away: made synchronously inside close(), so no
    // stack trace is taken for it alone (as on the 2025 leg, ~1% of a call's CPU).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    let closed: Promise<void>;
    try {
      closed = super.close();
    } finally {
      Error.stackTraceLimit = limit;
    }
    await closed;
    if (!wasClosed) this.onExchangeClosed?.(state._terminalDelivered, this.closedAfterTurn);
  }
}

/** The SDK entry's internal-error answer (its `internalServerErrorResponse`), with the request's id. */
function internalError(id: string | number): PlainAnswer {
  return jsonAnswer(
    500,
    JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "Internal server error" }, id }),
  );
}

/** What the leg reads of a server beyond its public API (the SDK's own pre-dispatch steps use them). */
interface ServerSteps {
  server: { _supportedProtocolVersions?: readonly string[] };
  toolInputSchemaJson?(name: string): unknown;
  resolveScopeChallenge?(context: { request: unknown; authInfo?: AuthInfo }): unknown;
}

const headerTools = new WeakMap<McpServer, Map<string, boolean>>();

/** Whether a tool's input schema declares `x-mcp-header` parameters (checked by the SDK before dispatch). */
function declaresHeaders(server: McpServer, tool: string): boolean {
  let known = headerTools.get(server);
  if (!known) {
    known = new Map();
    headerTools.set(server, known);
  }
  let declares = known.get(tool);
  if (declares === undefined) {
    const schema = (server as unknown as ServerSteps).toolInputSchemaJson?.(tool);
    declares = schema === undefined ? false : JSON.stringify(schema).includes('"x-mcp-header"');
    known.set(tool, declares);
  }
  return declares;
}

/**
 * One 2026-07-28 `tools/call` or `tools/list` request (see modernToolRoute) answered on a server
 * `build` gives — the SDK entry's `serveModern` step for step, on the request as the handler
 * read it: handlers see it as `ctx.http.req`, as on the 2025 JSON leg, and the result is written
 * by the route without a WHATWG Response (building the Request, the Response and reading it back,
 * and a server per request, made a modern call cost ~60% more CPU than a 2025 one). The server is
 * bound to the revision by the SDK's own transport class on connect, and given back through
 * `release` once its exchange is closed with its answer delivered and the client still there.
 * A request the SDK's pre-dispatch steps would treat specially (a tool that declares
 * `x-mcp-header` parameters, a scope challenge) goes to `viaSdk`, which answers it.
 */
export async function serveModernAsJson(
  request: McpHttpRequest,
  route: ModernRequestRoute,
  build: () => McpServer | Promise<McpServer>,
  options: {
    authInfo: AuthInfo;
    onerror?: (error: Error) => void;
    release?: (server: McpServer) => void;
    viaSdk: () => Promise<McpAnswer>;
  },
): Promise<McpAnswer> {
  const id = route.message.id;
  const report = (error: unknown) =>
    options.onerror?.(error instanceof Error ? error : new Error(String(error)));
  let server: McpServer;
  try {
    server = await build();
  } catch (error) {
    report(error);
    return internalError(id);
  }
  const steps = server as unknown as ServerSteps;
  const tool = (route.message.params as { name?: unknown } | undefined)?.name;
  let special: boolean;
  try {
    special =
      // A server not built for the revision (see modernServerOptions) is set up for it by the SDK.
      !steps.server._supportedProtocolVersions?.includes(MODERN_PROTOCOL_VERSION) ||
      (route.message.method === "tools/call" && typeof tool === "string" && declaresHeaders(server, tool)) ||
      (await steps.resolveScopeChallenge?.({ request: route.message, authInfo: options.authInfo })) !==
        undefined;
  } catch {
    special = true;
  }
  if (special) {
    options.release?.(server);
    return options.viaSdk();
  }

  const transport = new ModernExchangeTransport({ classification: route.classification });
  const signal = request.signal;
  transport.onExchangeClosed = (delivered, settled) => {
    // A turn later, as on the 2025 leg: the SDK settles its bookkeeping of the answered call first.
    if (delivered && !signal.aborted && options.release) {
      const release = options.release;
      if (settled) release(server);
      else setImmediate(() => release(server));
    }
  };
  try {
    await server.connect(transport);
    directDispatch(server, transport, route.message);
    const answer = await transport.handleMessage(route.message, {
      // The request as the handler read it: all handlers (and the SDK) read of it is method,
      // url, headers.get and signal.
      request: request as unknown as Request,
      authInfo: options.authInfo,
    });
    return answer as McpAnswer;
  } catch (error) {
    if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed)
      return { status: 499, headers: {}, body: null };
    await server.close().catch(() => undefined);
    report(error);
    return internalError(id);
  }
}

/**
 * The route's request sent by the transport straight to the server's request dispatch (the SDK
 * Protocol's `_onrequest`), where the server's own `onmessage` sends it after its three zod type
 * guards: the classifier that made the route already accepted it as a JSON-RPC request, and the
 * two guards that refuse it (a result, an error) built zod issues on every call. Any other
 * message takes the server's own way.
 */
function directDispatch(
  server: McpServer,
  transport: ModernExchangeTransport,
  message: JSONRPCRequest,
): void {
  const protocol = server.server as unknown as {
    _onrequest?: (request: JSONRPCRequest, extra: unknown) => void;
  };
  const onrequest = protocol._onrequest;
  const viaGuards = transport.onmessage;
  if (typeof onrequest !== "function" || !viaGuards) return;
  transport.onmessage = (each, extra) =>
    each === message ? onrequest.call(protocol, message, extra) : viaGuards.call(transport, each, extra);
}
