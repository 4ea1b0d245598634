import {
  type AuthInfo,
  isLegacyRequest,
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { McpHttpRequest } from "./mcp-http-exchange";

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
  // With the body given, the SDK's classifier reads only the method and headers (no body, no clone).
  return isLegacyRequest(request as Request, body);
}

/**
 * One legacy exchange answered as JSON: the SDK's stateless idiom (a fresh server on a fresh
 * transport without sessions) with `enableJsonResponse`, so the answer is one body the route
 * writes at once instead of a stream read and written chunk by chunk. A finished exchange holds
 * nothing (no timers, no pending handlers) and is left to the garbage collector; closing it would
 * only build a "connection closed" error per request. A client that leaves mid-call closes it,
 * which aborts the running handler (a script run stops), as the SDK's own leg does.
 */
export async function serveLegacyAsJson(
  request: Request,
  build: () => McpServer | Promise<McpServer>,
  options: {
    authInfo: AuthInfo;
    parsedBody: unknown;
    maxRequestBodySize: number;
    onerror?: (error: Error) => void;
  },
): Promise<Response> {
  let server: McpServer;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: options.maxRequestBodySize,
  });
  try {
    server = await build();
    await server.connect(transport);
  } catch (error) {
    // As the SDK's own leg answers a factory that failed: reported, and a JSON-RPC internal error.
    options.onerror?.(error instanceof Error ? error : new Error(String(error)));
    return internalError(options.parsedBody);
  }
  const answered = transport.handleRequest(request, {
    authInfo: options.authInfo,
    parsedBody: options.parsedBody,
  });
  const signal = request.signal;
  if (!signal) return answered;
  let onAbort: (() => void) | undefined;
  // A JSON exchange whose transport closed never resolves: the caller gets an empty answer it no
  // longer waits for, and nothing is left pending.
  const gone = new Promise<Response>((resolve) => {
    onAbort = () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
      resolve(new Response(null, { status: 499 }));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([answered, gone]);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

function internalError(body: unknown): Response {
  const id = (body as { id?: unknown } | null)?.id;
  return Response.json(
    {
      jsonrpc: "2.0",
      error: { code: -32603, message: "Internal server error" },
      id: !Array.isArray(body) && (typeof id === "string" || typeof id === "number") ? id : null,
    },
    { status: 500 },
  );
}
