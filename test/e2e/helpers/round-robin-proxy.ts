import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  url: string;
  /** How many requests each backend answered, by index. */
  served: number[];
  close(): Promise<void>;
}

/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1): a proxy never forwards
 * them. Forwarding the instance's `Keep-Alive: timeout=65` told clients they could keep an idle
 * connection to this proxy for 65 s while the proxy closed it after 5 s: a request sent as it
 * closed was reset ("fetch failed", 7 of 10,000 calls of a load run; test/e2e/balancer-keep-alive).
 */
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade"];

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = String(headers.connection ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase());
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    if (!HOP_BY_HOP.includes(name) && !named.includes(name)) out[name] = value;
  return out;
}

/** Node's http server answers with `Keep-Alive: timeout=<this in s>` and closes idle connections 1 s later. */
const CLIENT_KEEP_ALIVE_MS = 65_000;

/**
 * The load balancer of the multi-instance tests and the benchmark, in a few lines: each request
 * goes to the next backend in turn. A backend that refuses the connection (a stopped or killed
 * instance) is skipped for that request, as a balancer's health check would take it out; a
 * request that was already with a backend when it died gets a 502, as from a real balancer.
 */
export async function startRoundRobinProxy(
  backends: string[],
  options: {
    /**
     * How long an idle client connection is kept, and advertised (`Keep-Alive`) so a client that
     * reads it closes first (undici: 2 s before). Above clients' own idle timeouts (undici 4 s,
     * most ≤ 60 s) for those that do not read it. Tests shorten it to meet the close quickly.
     */
    keepAliveTimeoutMs?: number;
  } = {},
): Promise<RoundRobinProxy> {
  // Idle connections are closed after 30 s, before Signpost's own keep-alive timeout (65 s)
  // closes them from its side, as a real balancer's upstream idle timeout must be: otherwise a
  // request can go out on a connection the server is just closing, and gets a 502 (ECONNRESET;
  // the load run in scripts/bench-load.ts saw one). The timeout destroys free sockets only.
  const agents = backends.map(() => new Agent({ keepAlive: true, maxSockets: 256, timeout: 30_000 }));
  const served = backends.map(() => 0);
  let next = 0;

  function forward(req: IncomingMessage, res: ServerResponse, body: Buffer, tried: number) {
    if (tried >= backends.length) {
      res.writeHead(502, { "content-type": "text/plain" }).end("no backend answered\n");
      return;
    }
    const index = next++ % backends.length;
    const target = new URL(req.url ?? "/", backends[index]);
    const upstream = httpRequest(
      target,
      { method: req.method, headers: endToEnd(req.headers), agent: agents[index] },
      (answer) => {
        served[index] = (served[index] ?? 0) + 1;
        res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        answer.pipe(res);
        answer.on("error", () => res.destroy());
      },
    );
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      if (res.headersSent) res.destroy();
      // Nothing reached that backend: the next one may take it.
      else if (error.code === "ECONNREFUSED") forward(req, res, body, tried + 1);
      else
        res
          .writeHead(502, { "content-type": "text/plain" })
          .end(`backend failed: ${error.code ?? error.message}\n`);
    });
    upstream.end(body);
  }

  const server = createServer((req, res) => {
    // Buffered (our bodies are small), so a request can go to the next backend when one refuses.
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => forward(req, res, Buffer.concat(chunks), 0));
  });
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? CLIENT_KEEP_ALIVE_MS;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        for (const agent of agents) agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
