// `npm run bench:latency` (also part of `npm run bench`): what a read through Signpost costs an
// agent, measured from outside over HTTP, next to the direct legacy call beneath it, in one run.
// The production server (`serve`, not the dev server) runs as its own process on a fresh seeded
// database (SQLite, then PostgreSQL when reachable); the demo legacy service runs as another.
// Sequential latency (p50/p99 of N calls after a warm-up, every row's calls interleaved with the
// others': see timeRows) of each face's common reads over Streamable HTTP with a real MCP client, then throughput with 20 and 50 agents at once (each
// its own client and key) against the legacy service's own with as many callers; the same GET
// through a bare Node.js forwarding process (reference-proxy.ts) is printed beside both, the floor
// any gateway in its own process pays on this machine; then the
// database queries each operation makes (counted in this process on the same database). Each
// latency row also says how much CPU `serve` spent per call (Linux), steadier than latency when
// other processes share the machine.
//
// The client is the SDK v2 client (@modelcontextprotocol/client), which speaks 2025-11-25 unless
// told to negotiate 2026-07-28, as most hosts do today: the rows and the throughput are that
// protocol's; the reads are measured again over 2026-07-28 (`--protocols 2025` leaves that out).
//
// Flags: --calls 300 --db sqlite,postgres --agents 20,50 --per-agent 50 --protocols 2025,2026
//        --cpu-prof DIR (serve writes a V8 CPU profile there when it stops: where the time goes)
//        --otlp URL (serve exports its traces there: each call's stages)
import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { DbProvider } from "@/server/db/database-url";
import { createAgent } from "@/server/gateway/console/manage-agents";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import { postMcp, type ServeInstance, startServeInstance } from "../test/e2e/helpers/serve-instance";
import { allowEgressTo } from "../test/helpers/allow-egress";
import { countQueriesPerOperation } from "../test/helpers/count-queries";
import { createTestDatabase, postgresAvailable } from "../test/helpers/database";
import { buildIfNeeded } from "./next-build";
import { processCpuMs } from "./process-cpu-ms";
import { startReferenceProxy } from "./reference-proxy";
import { seedDemo } from "./seed-demo";
import { type LegacyProcess, startLegacyProcess } from "./start-legacy-process";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    calls: { type: "string", default: "300" },
    db: { type: "string", default: "sqlite,postgres" },
    agents: { type: "string", default: "20,50" },
    "per-agent": { type: "string", default: "50" },
    protocols: { type: "string", default: "2025,2026" },
    "cpu-prof": { type: "string" },
    otlp: { type: "string" },
  },
  strict: true,
});
const CALLS = Number(flags.calls);
const PER_AGENT = Number(flags["per-agent"]);
const AGENT_COUNTS = flags.agents.split(",").map(Number);
const PROVIDERS = flags.db.split(",") as DbProvider[];
const MODERN_ROWS = flags.protocols.split(",").includes("2026");
const masterKey = randomBytes(32).toString("hex");

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

type Timing = { p50: number; p99: number; cpuMs: number | null };

/** One row of the latency table: a call, and the process whose CPU it is charged (serve, the proxy). */
type Row = { label: string; call: () => Promise<unknown>; pid?: number };

/** Rounds each row's calls are spread over (see timeRows). */
const ROUNDS = 10;

/**
 * p50/p99 of `n` sequential calls of each row, and the CPU its process spent per call. The rows'
 * calls are interleaved: after a warm-up of every row, each round makes n/ROUNDS calls of each
 * row in turn (the first row of a round moving on by one each round), so every row is measured
 * across the same stretch of the run. Measured one row after the other, the rows compared two
 * moments: the machine's load (other sessions' suites on these 2 cores) and serve's own warm-up
 * (JIT, heap) drifted between the 2025-11-25 rows and the 2026-07-28 ones measured after them,
 * by more than a protocol changes.
 */
async function timeRows(rows: Row[], n: number): Promise<Timing[]> {
  for (let warm = 0; warm < 30; warm++) for (const row of rows) await row.call();
  const ms = rows.map((): number[] => []);
  const cpu = rows.map(() => 0);
  const per = Math.max(1, Math.round(n / ROUNDS));
  for (let round = 0; round < ROUNDS; round++)
    for (let k = 0; k < rows.length; k++) {
      const i = (k + round) % rows.length;
      const row = rows[i] as Row;
      const before = processCpuMs(row.pid);
      for (let c = 0; c < per; c++) {
        const t = performance.now();
        await row.call();
        ms[i]?.push(performance.now() - t);
      }
      const after = processCpuMs(row.pid);
      if (before !== null && after !== null) cpu[i] = (cpu[i] ?? 0) + after - before;
    }
  return rows.map((row, i) => {
    const sorted = (ms[i] ?? []).sort((a, b) => a - b);
    const cpuMs = processCpuMs(row.pid) === null ? null : (cpu[i] ?? 0) / sorted.length;
    return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), cpuMs };
  });
}

/** `callers` at once, `each` calls each; calls per second over the wall time. */
async function throughput(callers: Array<() => Promise<unknown>>, each: number): Promise<number> {
  const started = performance.now();
  await Promise.all(
    callers.map(async (call) => {
      for (let i = 0; i < each; i++) await call();
    }),
  );
  return (callers.length * each * 1000) / (performance.now() - started);
}

async function mcpClient(baseUrl: string, key: string, modern = false): Promise<Client> {
  const client = new Client(
    { name: "signpost-bench-latency", version: "1.0.0" },
    { capabilities: {}, versionNegotiation: { mode: modern ? "auto" : "legacy" } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

const toolCall = (client: Client, name: string, args: Record<string, unknown>) => async () => {
  // A loaded machine can hold a call longer than the SDK's default minute: measured, not failed.
  const result = await client.callTool({ name, arguments: args }, { timeout: 600_000 });
  // A read that failed (the legacy system unreachable, refused by the egress policy…) is an
  // outcome, not an error: measured as a success it would time retries and backoffs instead.
  const outcome = (result.structuredContent as { outcome?: unknown } | undefined)?.outcome;
  if (result.isError || (outcome !== undefined && outcome !== "applied"))
    throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
};

/**
 * One MCP request as a host's HTTP layer sends it on the 2025-11-25 leg (stateless: no session),
 * its JSON answer read whole; no client SDK. Throws unless it answered 200 with a result.
 */
function rawCall(baseUrl: string, key: string, method: string, params: Record<string, unknown>) {
  return async () => {
    const res = await postMcp(baseUrl, key, [{ method, params }]);
    const body = (await res.json()) as { result?: { isError?: boolean } };
    if (res.status !== 200 || !body.result || body.result.isError)
      throw new Error(
        `${method} answered ${res.status}${body.result?.isError ? " with an error result" : ""}`,
      );
  };
}

const READS: Array<[string, string, Record<string, unknown>]> = [
  ["get_context order", "get_context", { entity: "order", entity_id: "ord_paid" }],
  ["navigate shop://order/{id}", "navigate", { uri: "shop://order/ord_paid" }],
  ["search_capabilities", "search_capabilities", { query: "refund my order" }],
];

function table(header: string[], rows: Array<Array<string | number>>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? "").length)));
  const line = (cells: Array<string | number>) =>
    `| ${cells.map((c, i) => String(c).padEnd(widths[i] ?? 8)).join(" | ")} |`;
  return [line(header), line(widths.map(() => "---")), ...rows.map(line)].join("\n");
}

async function runOn(
  provider: DbProvider,
  legacy: LegacyProcess,
  proxy: { url: string; pid: number | undefined },
): Promise<void> {
  const database = await createTestDatabase(provider);
  let instance: ServeInstance | undefined;
  try {
    process.env.SIGNPOST_MASTER_KEY = masterKey;
    const seeded = await seedDemo(database.db, { legacyUrl: legacy.url, legacyApiKeys: legacy.apiKeys });
    const aliceKey = seeded?.agents.find((a) => a.user === "alice@acme.test")?.key ?? "";
    const alice = await database.db.user.findUniqueOrThrow({ where: { email: "alice@acme.test" } });
    const keys: string[] = [];
    for (let i = 0; i < Math.max(...AGENT_COUNTS); i++) {
      const made = await createAgent(database.db, cliActor(alice.tenantId, "bench"), {
        name: `latency agent ${i + 1}`,
        userId: alice.id,
      });
      if (!made.ok) throw new Error(`could not mint a bench agent: ${made.message}`);
      keys.push(made.value.key);
    }
    instance = await startServeInstance({
      databaseUrl: database.url,
      masterKey,
      // The per-key budget stays in the path, raised so it never refuses (it is not what is measured).
      env: {
        SIGNPOST_AGENT_RATE_LIMIT: "1000000",
        SIGNPOST_SKIP_BUILD: "1",
        // The demo legacy service listens on loopback, which the egress policy refuses unless allowed.
        SIGNPOST_EGRESS_ALLOW: [legacy.url, ...(flags.otlp ? [flags.otlp] : [])]
          .map((url) => new URL(url).host)
          .join(","),
        ...(flags.otlp ? { OTEL_EXPORTER_OTLP_ENDPOINT: flags.otlp } : {}),
      },
      nodeArgs: flags["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${flags["cpu-prof"]}`] : [],
      args: ["--no-migrate"],
    });
    const legacyGetVia = (base: string) => async () => {
      const res = await fetch(`${base}/v1/orders/ord_paid`, {
        headers: { authorization: `Bearer ${legacy.apiKeys.acme}` },
      });
      if (res.status !== 200) throw new Error(`${base} answered ${res.status}`);
      await res.arrayBuffer();
    };
    const legacyGet = legacyGetVia(legacy.url);
    const proxyGet = legacyGetVia(proxy.url);
    const agent = await mcpClient(instance.url, aliceKey);
    const modern = MODERN_ROWS ? await mcpClient(instance.url, aliceKey, true) : undefined;
    const pid = instance.child.pid;
    const rows: Row[] = [
      { label: "legacy GET /v1/orders/{id}", call: legacyGet },
      // The floor of any Node.js gateway here: the same GET through a bare forwarding process.
      { label: "the same GET through a bare Node proxy", call: proxyGet, pid: proxy.pid },
    ];
    const eras: Array<[Client, string]> = [
      [agent, ""],
      ...(modern ? [[modern, " (2026-07-28)"] as [Client, string]] : []),
    ];
    for (const [client, era] of eras) {
      for (const [label, name, args] of READS)
        rows.push({ label: `${label}${era}`, call: toolCall(client, name, args), pid });
      rows.push({
        label: `tools/list${era}`,
        call: () => client.listTools(undefined, { timeout: 600_000 }),
        pid,
      });
    }
    // The same two calls as one JSON-RPC POST each, without a client SDK: what of a row is the
    // server's and what the client's own work (its schema checks of the answer, its transport).
    rows.push(
      {
        label: "get_context order, bare JSON-RPC POST",
        call: rawCall(instance.url, aliceKey, "tools/call", {
          name: "get_context",
          arguments: { entity: "order", entity_id: "ord_paid" },
        }),
        pid,
      },
      {
        label: "tools/list, bare JSON-RPC POST",
        call: rawCall(instance.url, aliceKey, "tools/list", {}),
        pid,
      },
    );
    const measured = await timeRows(rows, CALLS);
    const timings = rows.map((row, i): [string, Timing] => [row.label, measured[i] as Timing]);
    await agent.close();
    await modern?.close();
    const base = timings[0]?.[1] as Timing;
    console.log(
      `\nlatency over HTTP, serve on ${provider}, MCP 2025-11-25 unless named, ${CALLS} sequential calls each after a warm-up, the rows interleaved in ${ROUNDS} rounds, ${cpus().length} cores (load ${loadavg()[0]?.toFixed(1)})\n`,
    );
    console.log(
      table(
        [
          "call",
          "p50 ms",
          "p99 ms",
          "overhead p50 ms",
          "overhead p99 ms",
          "× legacy p50",
          "serve (or proxy) CPU ms/call",
        ],
        timings.map(([label, t], i) => [
          label,
          t.p50.toFixed(1),
          t.p99.toFixed(1),
          i === 0 ? "" : (t.p50 - base.p50).toFixed(1),
          i === 0 ? "" : (t.p99 - base.p99).toFixed(1),
          (t.p50 / base.p50).toFixed(1),
          t.cpuMs === null ? "" : t.cpuMs.toFixed(1),
        ]),
      ),
    );

    const tput: Array<Array<string | number>> = [];
    for (const count of AGENT_COUNTS) {
      const legacyRate = await throughput(
        Array.from({ length: count }, () => legacyGet),
        PER_AGENT,
      );
      const proxyRate = await throughput(
        Array.from({ length: count }, () => proxyGet),
        PER_AGENT,
      );
      const clients = await Promise.all(keys.slice(0, count).map((k) => mcpClient(instance?.url ?? "", k)));
      const get = clients.map((c) => toolCall(c, "get_context", { entity: "order", entity_id: "ord_paid" }));
      for (const call of get) await call(); // each client's first call outside the clock
      const signpostRate = await throughput(get, PER_AGENT);
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      tput.push([
        `${count} agents × ${PER_AGENT}`,
        legacyRate.toFixed(0),
        proxyRate.toFixed(0),
        `${((100 * proxyRate) / legacyRate).toFixed(0)}%`,
        signpostRate.toFixed(0),
        `${((100 * signpostRate) / legacyRate).toFixed(0)}%`,
      ]);
    }

    console.log(
      `\n${table(
        [
          "throughput (calls/s)",
          "legacy GET",
          "bare Node proxy",
          "proxy / legacy",
          "Signpost get_context",
          "Signpost / legacy",
        ],
        tput,
      )}\n`,
    );
    const queries = await countQueriesPerOperation(database.url, aliceKey);
    console.log(
      `${table(
        [`database queries per operation (${provider})`, "queries"],
        Object.entries(queries).map(([op, n]) => [op, n]),
      )}\n`,
    );
  } finally {
    await instance?.stop();
    await database.drop();
  }
}

async function main(): Promise<void> {
  // SIGNPOST_SKIP_BUILD=1: measure the build already in .next (e.g. an older checkout's).
  if (process.env.SIGNPOST_SKIP_BUILD !== "1") await buildIfNeeded();
  const legacy = await startLegacyProcess();
  // The query count runs the calls in this process: its egress policy must reach the legacy service too.
  allowEgressTo(legacy.url);
  const proxy = await startReferenceProxy(legacy.url);
  try {
    for (const provider of PROVIDERS) {
      if (provider === "postgres" && !(await postgresAvailable())) {
        console.log("\nlatency on PostgreSQL SKIPPED: PostgreSQL is not reachable\n");
        continue;
      }
      await runOn(provider, legacy, proxy);
    }
  } finally {
    await proxy.stop();
    await legacy.stop();
  }
}

await main();
process.exit(0);
