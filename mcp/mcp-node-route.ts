import type { IncomingMessage, ServerResponse } from "node:http";
import { addToAccessLine } from "@/server/access-line";
import { SECURITY_HEADERS } from "@/server/security-headers";
import { isPlainAnswer, type McpAnswer, type McpHttpRequest, type PlainAnswer } from "./mcp-http-exchange";
import { MAX_REQUEST_BODY_BYTES } from "./mcp-http-handler";

type Answer = (request: McpHttpRequest) => Promise<McpAnswer>;

/**
 * `/mcp` answered on the process's own node:http server, before Next.js sees the request: the
 * same handler the Next route (app/mcp/route.ts) calls, without Next's router, request adapters,
 * response streaming and compression around it — those cost more than the MCP call itself (a
 * health check through Next took ~4 ms where the legacy GET beneath took 1). The handler reads
 * node's request directly and its own answers (a listed tool list, refusals) are written as they
 * are; a WHATWG Request is built only when the SDK's transport serves the request.
 * Returns false for every other path, which Next then serves.
 */
export function mcpNodeRoute(handler: () => Answer) {
  return async function route(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = req.url ?? "/";
    if (url !== "/mcp" && !url.startsWith("/mcp?")) return false;
    const controller = new AbortController();
    // A client that goes away before its answer is complete aborts the call (a script run stops).
    res.once("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const declaredTooLarge = Number(req.headers["content-length"]) > MAX_REQUEST_BODY_BYTES;
    const body = hasBody && !declaredTooLarge ? await readBounded(req) : undefined;
    // A body refused for its size is left unread on the socket (reading stopped, or never
    // began). Kept alive, that socket would take the client's next request and never answer
    // it; the 413 closes it instead, so the client's next request goes on a fresh connection.
    if (declaredTooLarge || (body !== undefined && body.byteLength > MAX_REQUEST_BODY_BYTES))
      res.setHeader("connection", "close");
    const answer = await handler()(nodeExchange(req, url, body, controller.signal));
    if (isPlainAnswer(answer)) writePlain(answer, res);
    else await sendResponse(answer, res);
    return true;
  };
}

const decoder = new TextDecoder();

/** Node's request as the handler reads it; the body already read (bounded) by the route. */
function nodeExchange(
  req: IncomingMessage,
  url: string,
  body: Uint8Array | undefined,
  signal: AbortSignal,
): McpHttpRequest {
  const absolute = `http://${req.headers.host ?? "localhost"}${url}`;
  return {
    method: req.method ?? "GET",
    url: absolute,
    headers: {
      // As Headers.get answers: names in any case, repeated values joined with ", ".
      get(name) {
        const value = req.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    },
    signal,
    async readBody(maxBytes) {
      // As the SDK's readRequestBody: Content-Length first, then what arrived; UTF-8 with its
      // TextDecoder's rules (a leading BOM dropped, bad bytes replaced).
      if (Number(req.headers["content-length"]) > maxBytes) return { tooLarge: true };
      if (!body) return { tooLarge: false, text: "" };
      if (body.byteLength > maxBytes) return { tooLarge: true };
      return { tooLarge: false, text: decoder.decode(body) };
    },
    toRequest: (text) =>
      new Request(absolute, {
        method: req.method,
        headers: headersOf(req),
        // A Buffer is a valid body; the DOM typings only name ArrayBuffer-backed views.
        body: text ?? (body as unknown as BodyInit | undefined),
        signal,
      }),
    addToAccessLine: (fields) => addToAccessLine(req, fields),
  };
}

/** One of the handler's own answers, in one write. */
function writePlain(answer: PlainAnswer, res: ServerResponse): void {
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  if (answer.body === null) res.end();
  else res.end(answer.body);
}

/**
 * The headers as this process rewrote them (req.headers, not rawHeaders): the request id and
 * the peer stamp the diagnostics-channel hooks wrote over whatever the client sent.
 */
function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/**
 * The body in memory, read no further than one byte past the handler's own limit: a body that
 * large is refused by the handler (413) from what was read, and the rest is never buffered.
 */
async function readBounded(req: IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > MAX_REQUEST_BODY_BYTES) break;
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}

async function sendResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  if (!response.body) {
    res.end();
    return;
  }
  // A JSON answer in one write; an event stream chunk by chunk, as the handler produces it.
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    res.end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  res.once("close", () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // The client left (the reader was cancelled) or the handler's stream failed: end what was sent.
  }
  res.end();
}
