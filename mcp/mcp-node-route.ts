import type { IncomingMessage, ServerResponse } from "node:http";
import { SECURITY_HEADERS } from "@/server/security-headers";
import { MAX_REQUEST_BODY_BYTES } from "./mcp-http-handler";

type FetchHandler = (request: Request) => Promise<Response>;

/**
 * `/mcp` answered on the process's own node:http server, before Next.js sees the request: the
 * same Request → Response handler the Next route (app/mcp/route.ts) calls, without Next's router,
 * request adapters, response streaming and compression around it — those cost more than the
 * MCP call itself (a health check through Next took ~4 ms where the legacy GET beneath took 1).
 * Returns false for every other path, which Next then serves.
 */
export function mcpNodeRoute(handler: () => FetchHandler) {
  return async function route(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = req.url ?? "/";
    if (url !== "/mcp" && !url.startsWith("/mcp?")) return false;
    const controller = new AbortController();
    // A client that goes away before its answer is complete aborts the call (a script run stops).
    res.once("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const response = await handler()(
      new Request(`http://${req.headers.host ?? "localhost"}${url}`, {
        method: req.method,
        headers: headersOf(req),
        // A Buffer is a valid body; the DOM typings only name ArrayBuffer-backed views.
        body: hasBody ? ((await readBounded(req)) as unknown as BodyInit) : undefined,
        signal: controller.signal,
      }),
    );
    await sendResponse(response, res);
    return true;
  };
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
