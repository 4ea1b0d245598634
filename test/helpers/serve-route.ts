import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { SignpostMcp } from "@/mcp/signpost-mcp";
import { forgetSelfPort, noteSelfAddress } from "@/server/egress/egress-policy";

type Handler = (request: Request) => Promise<Response>;
/** A Next.js route module as the app exports it: one handler per HTTP method. */
export type RouteModule = Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", Handler>>;

/**
 * Serves a Next.js route module's handlers on a real port, the way `next start` hands them a
 * web-standard Request (without a Next build): tests reach the app's own route file, and
 * external clients (the MCP Inspector, the conformance runner) get a URL. A method the module
 * does not export answers 405, as Next does.
 */
export async function serveRoute(
  route: RouteModule,
  options: { port?: number; host?: string } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const handler: Handler = async (request) => {
    const method = request.method as keyof RouteModule;
    const handle = route[method];
    return handle ? handle(request) : new Response(null, { status: 405 });
  };
  return listen((req, res) => void handleNode(handler, req, res), options);
}

/**
 * Serves a route of `serve`'s own node:http server (such as mcp/mcp-node-route.ts, which answers
 * `/mcp` in production before Next.js) on a real port; a path it does not answer is a 404.
 */
export function serveNodeRoute(
  route: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>,
  options: { port?: number; host?: string } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  return listen((req, res) => {
    route(req, res)
      .then((answered) => {
        if (!answered) res.writeHead(404).end();
      })
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.end();
        console.error(`serve-node-route: ${error instanceof Error ? error.message : String(error)}`);
      });
  }, options);
}

async function listen(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  options: { port?: number; host?: string },
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(listener);
  // As serve (scripts/next-http-server.ts): Node's default of 5 s let a client's next call on a
  // kept-alive connection meet the server closing it (ECONNRESET on a loaded machine).
  server.keepAliveTimeout = 65_000;
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  noteSelfAddress({ port });
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          // The system may give the port to the next test's legacy service in this process.
          forgetSelfPort(port);
          resolve();
        });
      }),
  };
}

export async function handleNode(handler: Handler, req: IncomingMessage, res: ServerResponse) {
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else if (value !== undefined) headers.set(name, value);
    }
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
      duplex: hasBody ? "half" : undefined,
      signal: controller.signal,
    } as RequestInit);
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    if (!response.body) {
      res.end();
      return;
    }
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
    res.end();
  } catch (error) {
    if (!res.headersSent) {
      res.writeHead(500, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error" }, id: null }),
      );
    } else res.end();
    console.error(`serve-route: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Makes `mcp` the instance app/mcp/route.ts serves (its process-wide one, kept on globalThis by
 * mcp/signpost-mcp.ts), so a test's route runs on the test's own database; returns the undo.
 */
export function serveThisMcp(mcp: SignpostMcp): () => void {
  const holder = globalThis as typeof globalThis & { __signpostMcp?: SignpostMcp };
  const previous = holder.__signpostMcp;
  holder.__signpostMcp = mcp;
  return () => {
    holder.__signpostMcp = previous;
  };
}
