// Next.js on Signpost's own node:http server (a Next "custom server"), so that the process, not
// Next, decides how it starts and stops: an access log line and a request id for every request,
// JSON lines for everything Next prints, and a shutdown that stops accepting, lets in-flight
// calls finish (bounded), and only then returns.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import next from "next";
import { openAccessLine, takeAccessLine } from "@/server/access-line";
import { noteSelfAddress } from "@/server/egress/egress-policy";
import { endLiveStreams, isDraining } from "@/server/gateway/draining";
import { installPeerStamp } from "@/server/gateway/peer-stamp";
import { installRequestIds, REQUEST_ID_HEADER } from "@/server/gateway/request-id";
import { logger } from "@/server/logger";
import { signpostMetrics } from "@/server/metrics/signpost-metrics";
import { root } from "./next-build";

export interface NextHttpServer {
  url: string;
  /**
   * Stops accepting connections, ends live monitor streams with their last event (their clients
   * reconnect elsewhere and resume from their cursor), waits up to `graceMs` for them and the
   * other requests in flight, then cuts what is left and closes Next. Resolves with how many
   * requests were cut.
   */
  close(graceMs: number): Promise<{ cut: number }>;
}

/** The route group of a path, for metric labels (bounded: never the path itself). */
function routeGroup(url: string | undefined): string {
  const path = (url ?? "/").split("?")[0] ?? "/";
  if (path === "/mcp" || path.startsWith("/mcp/")) return "/mcp";
  if (path.startsWith("/api/health")) return "/api/health";
  if (path.startsWith("/api/console/stream")) return "/api/console/stream";
  if (path.startsWith("/api/")) return `/api/${path.split("/")[2] ?? ""}`;
  if (path === "/metrics") return "/metrics";
  if (path.startsWith("/_next/")) return "/_next";
  return "page";
}

const isQuiet = (req: IncomingMessage) => {
  const group = routeGroup(req.url);
  return group === "/_next" || group === "/api/health" || group === "/metrics";
};

/**
 * One access line per request: method, path, status, latency and request id, never headers or
 * bodies. A plain object built here, not the request and response themselves: the logger's
 * secret redaction walks every object it is given before serializers pick fields, and walking
 * a live request (its socket, server, parser…) cost more CPU than the MCP call it logged
 * (pino-http did that: ~17% of serve's samples under the latency bench). What the request added
 * to its line (an MCP tool call's fields: access-line.ts) goes on it: one line, not two.
 */
function logAccess(req: IncomingMessage, res: ServerResponse, latencyMs: number): void {
  const added = takeAccessLine(req);
  const quiet = isQuiet(req);
  // Health probes, scrapes and static files: only at debug, or they drown everything else.
  // A draining instance's 503 to the balancer's readiness checks is the plan, not an error.
  const level =
    isDraining() && quiet
      ? "debug"
      : res.statusCode >= 500
        ? "error"
        : res.statusCode >= 400
          ? "warn"
          : quiet
            ? "debug"
            : "info";
  const requestId = String(req.headers[REQUEST_ID_HEADER] ?? "");
  if (!logger.isLevelEnabled(level)) {
    // The added fields were an info line of their own; they stay one where info is logged.
    if (added && logger.isLevelEnabled("info")) logger.info({ ...added, request_id: requestId });
    return;
  }
  logger[level](
    {
      ...added,
      // The id installRequestIds gave the request (X-Request-Id) before it reached us.
      request_id: requestId,
      req: { method: req.method, url: req.url },
      res: { status: res.statusCode },
      latency_ms: latencyMs,
    },
    `${req.method} ${routeGroup(req.url)} ${res.statusCode}`,
  );
}

export async function startNextHttpServer(options: {
  port: number;
  host: string;
  dev?: boolean;
  /** Answers the requests that are not Next's (the OAuth authorization server); false passes on. */
  before?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
}): Promise<NextHttpServer> {
  // Our own handlers for signals (serve.ts), and the project folder for readiness checks.
  process.env.NEXT_MANUAL_SIG_HANDLE = "1";
  process.env.SIGNPOST_ROOT ??= root;
  installRequestIds();
  // Also here, not only in instrumentation.ts: /mcp is answered before Next.js sees a request.
  installPeerStamp();

  const app = next({ dev: options.dev ?? false, dir: root, hostname: options.host, port: options.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const metrics = signpostMetrics();

  const inFlight = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    inFlight.add(res);
    // Leaving: every answer closes its connection, so that neither a client nor the balancer
    // keeps one open to reuse after this instance stops accepting.
    if (isDraining()) res.setHeader("connection", "close");
    const started = performance.now();
    openAccessLine(req);
    res.once("close", () => {
      inFlight.delete(res);
      const route = routeGroup(req.url);
      const latencyMs = performance.now() - started;
      metrics.httpRequests.inc({ method: req.method ?? "GET", route, status: String(res.statusCode) });
      metrics.httpRequestDuration.observe({ method: req.method ?? "GET", route }, latencyMs / 1000);
      logAccess(req, res, Math.round(latencyMs));
    });
    const before = options.before ?? (async () => false);
    before(req, res)
      .then((answered) => (answered ? undefined : handle(req, res)))
      .catch((error: unknown) => {
        logger.error({ err: error instanceof Error ? error.stack : String(error) }, "request handler failed");
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end();
      });
  });
  // next dev's hot reload talks over WebSocket upgrades.
  if (options.dev) {
    const upgrade = app.getUpgradeHandler();
    server.on("upgrade", (req, socket, head) => void upgrade(req, socket as Socket, head));
  }
  // Keep-alive past a balancer's idle timeout (typically 60 s), so it never reuses a connection we closed.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  // Never a destination of Signpost's own requests, whatever the egress allow list says.
  noteSelfAddress({ port, origin: process.env.SIGNPOST_PUBLIC_URL });

  return {
    url: `http://${options.host}:${port}`,
    async close(graceMs) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Live monitor streams never end by themselves: they end now with a last event; the
      // browser reconnects (to another instance) and resumes from its Last-Event-ID.
      endLiveStreams();
      const deadline = Date.now() + graceMs;
      while (inFlight.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const cut = inFlight.size;
      server.closeAllConnections();
      await closed;
      await app.close();
      return { cut };
    },
  };
}
