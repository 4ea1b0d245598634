import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

export interface LogLineSample {
  /** Bytes allocated per access line (meaningful only when `gcs` is 0). */
  bytes: number;
  /** Collections that ran while the bytes were counted. */
  gcs: number;
  /** CPU µs per line over `lines` more lines. */
  cpuUs: number;
}

/**
 * What one access line of an MCP tool call costs the process logger of the checkout at `root`, its
 * redaction included, measured in a fresh process (stdout, the log lines, thrown away). Bytes are
 * counted over 1,000 lines after 2,000 of warm-up; with `--min/max-semi-space-size=128` in `flags`
 * no collection runs while they are counted (reported in `gcs`, so the caller can check). Shared by
 * scripts/bench-log-line.ts and the allocation test, so both measure the same line.
 */
export function runLogLineProbe(root: string, options: { lines: number; flags: string[] }): LogLineSample {
  const probe = `
    import { PerformanceObserver } from "node:perf_hooks";
    const { logger } = await import("./server/logger.ts");
    const line = (i) => logger.info({
      event: "mcp.tool_call", face: "actions", tool: "get_context", outcome: "applied",
      agent: "sp_Ab12Cd34", tenant: "acme", tool_latency_ms: 2.4,
      request_id: "0f8e6a2c-5b1d-4e1a-9c3f-" + String(100000000000 + i),
      req: { method: "POST", url: "/mcp" }, res: { status: 200 }, latency_ms: 3,
    }, "POST /mcp 200");
    for (let i = 0; i < 2000; i++) line(i);
    let collections = 0;
    new PerformanceObserver((list) => { collections += list.getEntries().length; }).observe({ entryTypes: ["gc"] });
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 20));
    const settled = collections;
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 1000; i++) line(i);
    const bytes = (process.memoryUsage().heapUsed - before) / 1000;
    await new Promise((r) => setTimeout(r, 20));
    const gcs = collections - settled;
    const cpu = process.cpuUsage();
    for (let i = 0; i < ${options.lines}; i++) line(i);
    const used = process.cpuUsage(cpu);
    process.stderr.write(JSON.stringify({ bytes, gcs, cpuUs: (used.user + used.system) / ${Math.max(1, options.lines)} }) + "\\n");
  `;
  const child = spawnSync(
    process.execPath,
    ["--expose-gc", ...options.flags, "--import", tsx, "--input-type=module", "-e", probe],
    {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "info" },
      stdio: ["ignore", "ignore", "pipe"],
      encoding: "utf8",
    },
  );
  const last = child.stderr.trim().split("\n").at(-1) ?? "";
  if (child.status !== 0 || !last.startsWith("{")) throw new Error(`${root}: ${child.stderr}`);
  return JSON.parse(last) as LogLineSample;
}
