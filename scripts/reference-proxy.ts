// The floor any Node.js gateway pays on this machine, for the latency bench to print next to
// Signpost: a bare reverse proxy in its own process that forwards each request (method, path,
// authorization) to one upstream with the same `fetch` Signpost's connectors use, and answers
// its status and body. No protocol, no audit, no permissions: what is left is the extra process
// hop itself (two more socket writes and reads, one more HTTP parse each way). Bench-only.
import { createServer } from "node:http";
import { spawnAnnouncingProcess } from "./spawn-announcing-process";

/** The proxy as its own process (as `serve` is), forwarding to `upstream`. */
export async function startReferenceProxy(
  upstream: string,
): Promise<{ url: string; pid: number | undefined; stop(): Promise<void> }> {
  const { child, url } = await spawnAnnouncingProcess(import.meta.filename, {
    name: "the reference proxy",
    args: [upstream],
  });
  return {
    url,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

function serveProxy(upstream: string): void {
  const server = createServer((req, res) => {
    const headers: Record<string, string> = {};
    if (req.headers.authorization) headers.authorization = req.headers.authorization;
    fetch(new URL(req.url ?? "/", upstream), { method: req.method, headers })
      .then(async (answer) => {
        const body = Buffer.from(await answer.arrayBuffer());
        res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "text/plain" });
        res.end(body);
      })
      .catch(() => {
        res.writeHead(502);
        res.end();
      });
  });
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    if (address && typeof address === "object")
      console.log(JSON.stringify({ url: `http://127.0.0.1:${address.port}` }));
  });
  process.once("SIGTERM", () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

if (process.argv[1] === import.meta.filename) {
  const upstream = process.argv[2];
  if (!upstream) throw new Error("usage: reference-proxy.ts <upstream url>");
  serveProxy(upstream);
}
