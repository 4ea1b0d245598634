import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { freePort } from "./signpost-app";

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the server answered
type Loose = any;

const root = fileURLToPath(new URL("../../..", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

export interface ServeInstance {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything it printed, stdout and stderr, in order. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after 30 s; resolves with the exit code. */
  stop(): Promise<number | null>;
  kill(): void;
}

/**
 * Starts `npx signpost serve` (scripts/serve.ts, the production entry, as bin/signpost.mjs runs
 * it, without the launcher in between so a test can SIGKILL the server itself) on a free port
 * with its own data directory, and waits until it listens. Rejects with its output if it exits
 * first, unless `expectExit`.
 */
export async function startServeInstance(options: {
  databaseUrl: string;
  masterKey: string;
  env?: Record<string, string>;
  args?: string[];
  /** Resolve as soon as it exits (a start that must be refused) instead of rejecting. */
  expectExit?: boolean;
  timeoutMs?: number;
  /** A given port (a restarted instance takes its predecessor's place behind a balancer). */
  port?: number;
  /** Node's own flags before the entry (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeArgs?: string[];
  /** Another checkout to run serve from (an A/B bench against another commit); default: this one. */
  root?: string;
}): Promise<ServeInstance> {
  const from = options.root ?? root;
  const port = options.port ?? (await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), "signpost-serve-"));
  const chunks: string[] = [];
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), "--import", tsx, join(from, "scripts/serve.ts"), ...(options.args ?? [])],
    {
      cwd: from,
      env: {
        ...process.env,
        DATABASE_URL: options.databaseUrl,
        SIGNPOST_MASTER_KEY: options.masterKey,
        SIGNPOST_DATA_DIR: dataDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        LOG_LEVEL: "info",
        // No balancer to leave unless the test has one: stop() does not wait out a drain.
        SIGNPOST_DRAIN_S: "0",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", (c: Buffer) => chunks.push(c.toString()));
  child.stderr?.on("data", (c: Buffer) => chunks.push(c.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  const output = () => chunks.join("");
  const instance: ServeInstance = {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    output,
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
        const code = await exited;
        clearTimeout(timer);
        return code;
      }
      return exited;
    },
  };
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  while (!output().includes('"event":"listening"')) {
    if (child.exitCode !== null || child.signalCode !== null) {
      if (options.expectExit) return instance;
      throw new Error(`serve exited with ${child.exitCode}:\n${output().slice(-4000)}`);
    }
    if (Date.now() > deadline) {
      instance.kill();
      throw new Error(`serve did not listen in time:\n${output().slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return instance;
}

/** The JSON-RPC answers of an /mcp response (JSON, or one SSE event per message). */
export async function mcpAnswers(
  response: Response,
): Promise<Array<{ id: number; result?: Loose; error?: Loose }>> {
  const text = await response.text();
  if (response.headers.get("content-type")?.includes("application/json")) {
    const body = JSON.parse(text) as unknown;
    return (Array.isArray(body) ? body : [body]) as Array<{ id: number }>;
  }
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as { id: number });
}

let rpcId = 1;

/** One raw JSON-RPC POST to /mcp (a batch when `calls` has several), as a stateless client sends it. */
export function postMcp(
  baseUrl: string,
  key: string,
  calls: Array<{ method: string; params?: unknown }>,
): Promise<Response> {
  const messages = calls.map((c) => ({
    jsonrpc: "2.0",
    id: rpcId++,
    method: c.method,
    params: c.params ?? {},
  }));
  return fetch(`${baseUrl}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify(messages.length === 1 ? messages[0] : messages),
  });
}

/** tools/call through /mcp; the structured result, or throws with what came back. */
export async function callTool(
  baseUrl: string,
  key: string,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, Loose>> {
  const response = await postMcp(baseUrl, key, [{ method: "tools/call", params: { name, arguments: args } }]);
  if (response.status !== 200) throw new Error(`${name}: HTTP ${response.status} ${await response.text()}`);
  const [answer] = await mcpAnswers(response);
  if (!answer?.result) throw new Error(`${name}: ${JSON.stringify(answer)}`);
  return (answer.result.structuredContent ?? {}) as Record<string, Loose>;
}
