// `npx tsx scripts/bench-latency-ab.ts <checkout A> <checkout B>` (env CALLS=400, DB=sqlite|postgres,
// PROTOCOL=2025|2026: the MCP revision the client speaks, 2025-11-25 by default as most hosts do;
// AGENTS=20 PER_AGENT=50 ROUNDS=3: the throughput part, AGENTS=0 to skip it):
// two commits side by side in one run. `serve` from each checkout (each with its own .next build;
// SIGNPOST_SKIP_BUILD is set) on ONE seeded database, behind one legacy service, and every call
// made to A then to B in turn, so the load other processes put on the machine falls on both
// alike: on a shared 2-core machine, back-to-back runs of bench-latency swung more between runs
// than the change being measured. Prints p50/p99 and the CPU each serve spent per call, then
// get_context's throughput with AGENTS agents at once (each its own key), A, B and the legacy GET
// in turn for ROUNDS rounds: the best round of each, and each serve's CPU per call over them all.
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { DbProvider } from "@/server/db/database-url";
import { createAgent } from "@/server/gateway/console/manage-agents";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import { type ServeInstance, startServeInstance } from "../test/e2e/helpers/serve-instance";
import { createTestDatabase } from "../test/helpers/database";
import { processCpuMs } from "./process-cpu-ms";
import { seedDemo } from "./seed-demo";
import { startLegacyProcess } from "./start-legacy-process";

const [rootA, rootB] = process.argv.slice(2);
if (!rootA || !rootB) throw new Error("usage: bench-latency-ab.ts <checkout A> <checkout B>");
const CALLS = Number(process.env.CALLS ?? 400);
const provider = (process.env.DB ?? "sqlite") as DbProvider;
/** The SDK v2 client speaks 2025-11-25 unless told to negotiate 2026-07-28 (`auto`). */
const negotiation = process.env.PROTOCOL === "2026" ? "auto" : "legacy";
const AGENTS = Number(process.env.AGENTS ?? 20);
const PER_AGENT = Number(process.env.PER_AGENT ?? 50);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

/** CPU (all threads) a process has used so far, in ms (Linux; 0 elsewhere). */
const cpuMsOf = (pid: number | undefined): number => processCpuMs(pid) ?? 0;
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

const masterKey = randomBytes(32).toString("hex");
const legacy = await startLegacyProcess();
const database = await createTestDatabase(provider);
process.env.SIGNPOST_MASTER_KEY = masterKey;
const seeded = await seedDemo(database.db, { legacyUrl: legacy.url, legacyApiKeys: legacy.apiKeys });
const key = seeded?.agents.find((a) => a.user === "alice@acme.test")?.key ?? "";
const alice = await database.db.user.findUniqueOrThrow({ where: { email: "alice@acme.test" } });
const agentKeys: string[] = [];
for (let i = 0; i < AGENTS; i++) {
  const made = await createAgent(database.db, cliActor(alice.tenantId, "bench"), {
    name: `ab agent ${i + 1}`,
    userId: alice.id,
  });
  if (!made.ok) throw new Error(`could not mint a bench agent: ${made.message}`);
  agentKeys.push(made.value.key);
}
const env = {
  SIGNPOST_AGENT_RATE_LIMIT: "1000000",
  SIGNPOST_SKIP_BUILD: "1",
  SIGNPOST_EGRESS_ALLOW: new URL(legacy.url).host,
};
const start = (root: string) =>
  startServeInstance({ databaseUrl: database.url, masterKey, env, args: ["--no-migrate"], root });
const instances: ServeInstance[] = [await start(rootA), await start(rootB)];

async function connect(url: string, agentKey = key): Promise<Client> {
  const client = new Client(
    { name: "signpost-bench-ab", version: "1.0.0" },
    { capabilities: {}, versionNegotiation: { mode: negotiation } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${agentKey}` } },
    }),
  );
  return client;
}
const clients = await Promise.all(instances.map((i) => connect(i.url)));

const CALLED: Array<[string, (c: Client) => Promise<unknown>]> = [
  [
    "get_context order",
    (c) => c.callTool({ name: "get_context", arguments: { entity: "order", entity_id: "ord_paid" } }),
  ],
  [
    "navigate shop://order/{id}",
    (c) => c.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_paid" } }),
  ],
  [
    "search_capabilities",
    (c) => c.callTool({ name: "search_capabilities", arguments: { query: "refund my order" } }),
  ],
  ["tools/list", (c) => c.listTools()],
];

const legacyMs: number[] = [];
for (let i = 0; i < 30 + CALLS; i++) {
  const t = performance.now();
  const res = await fetch(`${legacy.url}/v1/orders/ord_paid`, {
    headers: { authorization: `Bearer ${legacy.apiKeys.acme}` },
  });
  await res.arrayBuffer();
  if (i >= 30) legacyMs.push(performance.now() - t);
}
legacyMs.sort((a, b) => a - b);
console.log(
  `\n${provider}, MCP ${negotiation === "auto" ? "2026-07-28" : "2025-11-25"}, ${CALLS} calls each, A and B in turn; load ${loadavg()[0]?.toFixed(1)}; legacy GET p50 ${quantile(legacyMs, 0.5).toFixed(2)} ms, p99 ${quantile(legacyMs, 0.99).toFixed(1)} ms\nA: ${rootA}\nB: ${rootB}\n`,
);
console.log(
  "| call | A p50 ms | B p50 ms | A p99 ms | B p99 ms | A serve CPU ms/call | B serve CPU ms/call |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const [label, call] of CALLED) {
  for (let i = 0; i < 30; i++) for (const client of clients) await call(client);
  const ms: number[][] = [[], []];
  // Each process's CPU over the whole loop, not only while its own call ran: what a server does
  // after answering (its access line on close, work put off to the next turn) counts too.
  const cpuBefore = instances.map((i) => cpuMsOf(i.child.pid));
  for (let i = 0; i < CALLS; i++)
    for (const [n, client] of clients.entries()) {
      const t = performance.now();
      await call(client);
      ms[n]?.push(performance.now() - t);
    }
  const [cpuA, cpuB] = instances.map((i, n) => cpuMsOf(i.child.pid) - (cpuBefore[n] ?? 0)) as [
    number,
    number,
  ];
  const [a, b] = ms.map((m) => m.sort((x, y) => x - y)) as [number[], number[]];
  console.log(
    `| ${label} | ${quantile(a, 0.5).toFixed(2)} | ${quantile(b, 0.5).toFixed(2)} | ${quantile(a, 0.99).toFixed(1)} | ${quantile(b, 0.99).toFixed(1)} | ${(cpuA / CALLS).toFixed(2)} | ${(cpuB / CALLS).toFixed(2)} |`,
  );
}
await Promise.all(clients.map((c) => c.close().catch(() => undefined)));

/** `calls` at once, PER_AGENT calls each; calls per second over the wall time. */
async function rate(calls: Array<() => Promise<unknown>>): Promise<number> {
  const started = performance.now();
  await Promise.all(
    calls.map(async (call) => {
      for (let i = 0; i < PER_AGENT; i++) await call();
    }),
  );
  return (calls.length * PER_AGENT * 1000) / (performance.now() - started);
}
if (AGENTS > 0) {
  const getContext = (c: Client) => () =>
    c.callTool({ name: "get_context", arguments: { entity: "order", entity_id: "ord_paid" } });
  const legacyGet = async () => {
    const res = await fetch(`${legacy.url}/v1/orders/ord_paid`, {
      headers: { authorization: `Bearer ${legacy.apiKeys.acme}` },
    });
    await res.arrayBuffer();
  };
  const fleets = await Promise.all(
    instances.map((i) => Promise.all(agentKeys.map((k) => connect(i.url, k)))),
  );
  const calls = fleets.map((fleet) => fleet.map(getContext));
  for (const fleet of calls) for (const call of fleet) await call(); // first calls outside the clock
  const best = { legacy: 0, a: 0, b: 0 };
  const cpu = [0, 0];
  for (let round = 0; round < ROUNDS; round++) {
    best.legacy = Math.max(best.legacy, await rate(Array.from({ length: AGENTS }, () => legacyGet)));
    for (const [n, instance] of instances.entries()) {
      const before = cpuMsOf(instance.child.pid);
      const r = await rate(calls[n] ?? []);
      cpu[n] = (cpu[n] ?? 0) + cpuMsOf(instance.child.pid) - before;
      if (n === 0) best.a = Math.max(best.a, r);
      else best.b = Math.max(best.b, r);
    }
  }
  const done = ROUNDS * AGENTS * PER_AGENT;
  console.log(
    `\n| get_context, ${AGENTS} agents × ${PER_AGENT}, best of ${ROUNDS} | calls/s | of legacy | serve CPU ms/call |\n| --- | --- | --- | --- |\n| legacy GET | ${best.legacy.toFixed(0)} | | |\n| A | ${best.a.toFixed(0)} | ${((100 * best.a) / best.legacy).toFixed(0)}% | ${((cpu[0] ?? 0) / done).toFixed(2)} |\n| B | ${best.b.toFixed(0)} | ${((100 * best.b) / best.legacy).toFixed(0)}% | ${((cpu[1] ?? 0) / done).toFixed(2)} |`,
  );
  await Promise.all(fleets.flat().map((c) => c.close().catch(() => undefined)));
}
await Promise.all(instances.map((i) => i.stop()));
await legacy.stop();
await database.drop();
process.exit(0);
