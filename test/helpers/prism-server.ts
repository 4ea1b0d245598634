import { type ChildProcess, spawn } from "node:child_process";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { allowEgressTo } from "./allow-egress";

/** A free local port (the OS picks; closed again before Prism binds it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RunningPrism {
  /** Prism's own address. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Stoplight Prism mocking one OpenAPI document on localhost: it answers from the document's
 * examples, validates requests against it (422 for a bad body, 401 when a secured operation
 * comes without its credentials). Ready when it logs that it is listening.
 */
export async function startPrism(
  document: string,
  options: { timeoutMs?: number } = {},
): Promise<RunningPrism> {
  const port = await freePort();
  const cli = join(process.cwd(), "node_modules/@stoplight/prism-cli/dist/index.js");
  const child: ChildProcess = spawn(
    process.execPath,
    [cli, "mock", document, "-p", String(port), "-h", "127.0.0.1"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Prism did not start in time:\n${output.slice(-2000)}`)),
      options.timeoutMs ?? 30_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited (${code}):\n${output.slice(-2000)}`));
    });
  });
  child.removeAllListeners("exit");
  allowEgressTo(`http://127.0.0.1:${port}`);
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
    },
  };
}

type PrismLibraries = {
  server: typeof import("@stoplight/prism-http-server");
  http: typeof import("@stoplight/prism-http");
  core: typeof import("@stoplight/prism-core");
};
let libraries: Promise<PrismLibraries> | undefined;

/** Prism's own packages, loaded once per test process (loading them is most of a Prism start). */
export function loadPrism(): Promise<PrismLibraries> {
  libraries ??= Promise.all([
    import("@stoplight/prism-http-server"),
    import("@stoplight/prism-http"),
    import("@stoplight/prism-core"),
  ]).then(([server, http, core]) => ({ server, http, core }));
  return libraries;
}

/**
 * The same mock as `startPrism` (Prism's HTTP server with the CLI's `mock` settings: requests
 * validated, security checked, answers from the document's examples), run inside the test
 * process: Prism's packages load once, so each further document costs only its own reading.
 * For suites that mock many documents one after another.
 */
export async function servePrism(document: string): Promise<RunningPrism> {
  const { server, http, core } = await loadPrism();
  const operations = await http.getHttpOperationsFromSpec(document);
  if (operations.length === 0) throw new Error("Prism found no operations in the document");
  const prism = server.createServer(operations, {
    cors: false,
    config: {
      validateRequest: true,
      validateResponse: true,
      checkSecurity: true,
      errors: false,
      upstreamProxy: undefined,
      mock: { dynamic: false },
      isProxy: false,
    },
    components: { logger: core.createLogger("PRISM", { level: "silent" }) },
  });
  const address = await prism.listen(0, "127.0.0.1");
  return { url: address, stop: () => prism.close() };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface RecordingProxy {
  url: string;
  requests: RecordedRequest[];
  stop(): Promise<void>;
}

/**
 * A tiny HTTP proxy in front of a system that records every request it passes on (method, path,
 * headers, body): what reached the system, and when, is what a test asserts on.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const requests: RecordedRequest[] = [];
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      requests.push({
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: body.toString(),
      });
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
          // No kept-alive sockets: stopping the system behind must not wait on this proxy.
          agent: false,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => {
        res.writeHead(502);
        res.end();
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  allowEgressTo(`http://127.0.0.1:${port}`);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
