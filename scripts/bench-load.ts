import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createAgent } from "@/server/gateway/console/manage-agents";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import { startRoundRobinProxy } from "../test/e2e/helpers/round-robin-proxy";
import { type ServeInstance, startServeInstance } from "../test/e2e/helpers/serve-instance";
import { createTestDatabase, postgresAvailable, testPostgresAdminUrl } from "../test/helpers/database";
import { buildIfNeeded } from "./next-build";
import { seedDemo } from "./seed-demo";
import { type LegacyProcess, startLegacyProcess } from "./start-legacy-process";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    agents: { type: "string", default: "50" },
    calls: { type: "string", default: "200" },
    instances: { type: "string", default: "1,2" },
  },
  strict: true,
});
const whole = (name: string, value: string, max: number) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    console.error(`bench:load: --${name} must be a whole number from 1 to ${max} (it is ${value})`);
    process.exit(2);
  }
  return n;
};
const AGENTS = whole("agents", flags.agents, 1000);
const CALLS = whole("calls", flags.calls, 100_000);
const INSTANCE_COUNTS = flags.instances.split(",").map((n) => whole("instances", n.trim(), 8));

const masterKey = randomBytes(32).toString("hex");

/** The read calls each agent cycles through (all allowed to a member's agent by default). */
const MIX: Array<[string, Record<string, unknown>]> = [
  ["search_capabilities", { query: "refund my order" }],
  ["get_context", { entity: "order", entity_id: "ord_paid" }],
  ["navigate", { uri: "shop://order/ord_paid" }],
  ["search", { query: "order" }],
];

type CallRecord = { ms: number; status: number; requestId: string | null; failed: string | null };

/**
 * One agent: its own MCP client (initialize, then tools/call), its own key. A fetch wrapper sees
 * each tools/call's HTTP status and X-Request-Id, which the SDK does not hand back.
 */
async function runAgent(baseUrl: string, key: string, calls: number, offset: number): Promise<CallRecord[]> {
  let last: { status: number; requestId: string | null } = { status: 0, requestId: null };
  const observe: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (typeof init?.body === "string" && init.body.includes('"tools/call"'))
      last = { status: response.status, requestId: response.headers.get("x-request-id") };
    return response;
  };
  const client = new Client({ name: "signpost-bench-agent", version: "1.0.0" }, { capabilities: {} });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
      fetch: observe,
    }),
  );
  const records: CallRecord[] = [];
  for (let i = 0; i < calls; i++) {
    const [name, args] = MIX[(i + offset) % MIX.length] as (typeof MIX)[number];
    last = { status: 0, requestId: null };
    const started = performance.now();
    let failed: string | null = null;
    try {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError) failed = `${name}: ${JSON.stringify(result.content).slice(0, 200)}`;
    } catch (error) {
      failed = `${name}: ${(error as Error).message.slice(0, 200)}`;
    }
    records.push({ ms: performance.now() - started, ...last, failed });
  }
  await client.close().catch(() => undefined);
  return records;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

type RunResult = {
  instances: number;
  calls: number;
  seconds: number;
  p50: number;
  p95: number;
  p99: number;
  fiveXx: number;
  otherFailures: number;
  auditRows: number;
  lost: number;
  served: number[];
  exitCodes: Array<number | null>;
  byOperation: Record<string, number>;
  firstFailure: string | null;
};

async function loadRun(instanceCount: number, legacy: LegacyProcess): Promise<RunResult> {
  const database = await createTestDatabase("postgres");
  const instances: ServeInstance[] = [];
  try {
    // The seed and the bench's agents are sealed with the instances' master key.
    process.env.SIGNPOST_MASTER_KEY = masterKey;
    const seeded = await seedDemo(database.db, { legacyUrl: legacy.url, legacyApiKeys: legacy.apiKeys });
    const alice = await database.db.user.findUniqueOrThrow({ where: { email: "alice@acme.test" } });
    const agents: Array<{ id: string; key: string }> = [];
    for (let i = 0; i < AGENTS; i++) {
      const made = await createAgent(database.db, cliActor(alice.tenantId, "bench"), {
        name: `bench agent ${i + 1}`,
        userId: alice.id,
      });
      if (!made.ok) throw new Error(`could not mint a bench agent: ${made.message}`);
      agents.push({ id: made.value.agent.id, key: made.value.key });
    }
    const env = {
      SIGNPOST_AGENT_RATE_LIMIT: "1000000", // raised for the bench (see the top of this file)
      SIGNPOST_SKIP_BUILD: "1", // built once before the runs
      // The demo legacy service listens on loopback, which the egress policy refuses unless
      // allowed: without this every read that reaches it was a temporarily_unavailable.
      SIGNPOST_EGRESS_ALLOW: new URL(legacy.url).host,
    };
    instances.push(
      ...(await Promise.all(
        Array.from({ length: instanceCount }, () =>
          startServeInstance({ databaseUrl: database.url, masterKey, env, args: ["--no-migrate"] }),
        ),
      )),
    );
    const proxy = await startRoundRobinProxy(instances.map((i) => i.url));
    try {
      // Warm-up through the balancer (first renders, connection pools), by an agent the count leaves out.
      const warmKey = seeded?.agents.find((a) => a.user === "alice@acme.test")?.key ?? "";
      await runAgent(proxy.url, warmKey, 8 * instanceCount, 0);
      for (let i = 0; i < proxy.served.length; i++) proxy.served[i] = 0;

      const started = performance.now();
      const perAgent = await Promise.all(agents.map((agent, i) => runAgent(proxy.url, agent.key, CALLS, i)));
      const seconds = (performance.now() - started) / 1000;
      const records = perAgent.flat();
      const answered = records.filter((r) => r.status === 200 && !r.failed);
      const ids = agents.map((a) => a.id);
      const rows = await database.db.auditEvent.findMany({
        where: { agentId: { in: ids } },
        select: { requestId: true, operation: true },
      });
      const byOperation: Record<string, number> = {};
      for (const r of rows) byOperation[r.operation] = (byOperation[r.operation] ?? 0) + 1;
      const audited = new Set(rows.map((r) => r.requestId));
      const ms = records.map((r) => r.ms).sort((a, b) => a - b);
      const failures = records.filter((r) => r.failed || r.status !== 200);
      return {
        instances: instanceCount,
        calls: records.length,
        seconds,
        p50: quantile(ms, 0.5),
        p95: quantile(ms, 0.95),
        p99: quantile(ms, 0.99),
        fiveXx: records.filter((r) => r.status >= 500).length,
        otherFailures: failures.filter((r) => r.status < 500).length,
        auditRows: rows.length,
        lost: answered.filter((r) => !r.requestId || !audited.has(r.requestId)).length,
        served: [...proxy.served],
        exitCodes: [],
        byOperation,
        firstFailure: failures[0] ? `HTTP ${failures[0].status}: ${failures[0].failed ?? ""}` : null,
      };
    } finally {
      await proxy.close();
    }
  } finally {
    const codes = await Promise.all(instances.map((i) => i.stop()));
    await database.drop();
    lastExitCodes = codes;
  }
}
let lastExitCodes: Array<number | null> = [];

async function main(): Promise<void> {
  if (process.env.SIGNPOST_TEST_SKIP_POSTGRES === "1" || !(await postgresAvailable())) {
    console.log(
      `\nload run SKIPPED: it needs PostgreSQL (not reachable at ${testPostgresAdminUrl}; TEST_POSTGRES_URL points elsewhere).\n`,
    );
    return;
  }
  await buildIfNeeded();
  const legacy = await startLegacyProcess();
  const results: RunResult[] = [];
  try {
    for (const count of INSTANCE_COUNTS) {
      console.log(`load run: ${AGENTS} agents × ${CALLS} calls against ${count} instance(s)…`);
      const result = await loadRun(count, legacy);
      result.exitCodes = lastExitCodes;
      results.push(result);
    }
  } finally {
    await legacy.stop();
  }
  const widths = [9, 7, 7, 8, 8, 8, 8, 5, 9, 10, 5, 14, 8];
  const row = (cells: Array<string | number>) =>
    `| ${cells.map((c, i) => String(c).padEnd(widths[i] ?? 8)).join(" | ")} |`;
  console.log(
    `\n${[
      `load run: ${AGENTS} agents × ${CALLS} read calls each (${MIX.map(([n]) => n).join(", ")}), real MCP clients over HTTP, serve on PostgreSQL, ${cpus().length} cores (load average ${loadavg()[0]?.toFixed(1)} at the end)`,
      "",
      row([
        "instances",
        "calls",
        "wall s",
        "calls/s",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "5xx",
        "failures",
        "audit rows",
        "lost",
        "served",
        "exit",
      ]),
      row(Array.from({ length: widths.length }, () => "---")),
      ...results.map((r) =>
        row([
          r.instances,
          r.calls,
          r.seconds.toFixed(1),
          (r.calls / r.seconds).toFixed(0),
          r.p50.toFixed(0),
          r.p95.toFixed(0),
          r.p99.toFixed(0),
          r.fiveXx,
          r.otherFailures,
          r.auditRows,
          r.lost,
          r.served.join(" / "),
          r.exitCodes.join(" / "),
        ]),
      ),
    ].join("\n")}\n`,
  );
  console.log(
    "audit rows: rows in the database written for the bench's agents; lost: calls answered 200 whose request id has no audit row; failures: calls that did not answer 200 with a result (not 5xx); served: calls (and the MCP handshakes) each instance answered; exit: each instance's exit code after SIGTERM.",
  );
  for (const r of results)
    console.log(
      `audit rows by operation with ${r.instances} instance(s): ${Object.entries(r.byOperation)
        .map(([op, n]) => `${op} ${n}`)
        .join(", ")}`,
    );
  for (const r of results)
    if (r.firstFailure) console.log(`first failure with ${r.instances} instance(s): ${r.firstFailure}`);
  const bad = results.some((r) => r.fiveXx > 0 || r.lost > 0 || r.otherFailures > 0 || r.auditRows < r.calls);
  if (bad) process.exitCode = 1;
}

await main();
process.exit(process.exitCode ?? 0);
