// `npx tsx scripts/trace-one-call.ts [get_context|navigate|search_capabilities|tools/list]` (env
// CALLS=300, PROTOCOL=2025|2026): one kind of call, made over and over through a real MCP client
// on the /mcp route `serve` answers, with the OpenTelemetry SDK recording every span in memory;
// prints each span name's median duration and the time of the call that no span below it covers
// (the MCP SDK, the answer's text, the HTTP route). The legacy service runs in its own process, as
// under `serve`. A stage's median is what one call spends in it: a profile tells CPU, this tells
// where a call waits.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Context } from "@opentelemetry/api";
import type { ReadableSpan, Span, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { mcpNodeRoute } from "@/mcp/mcp-node-route";
import { createSignpostMcp } from "@/mcp/signpost-mcp";
import { createDb } from "@/server/db/client";
import { startTracing } from "@/server/telemetry/start-tracing";
import { createWorld } from "../test/gateway/gateway-world";
import { allowEgressTo } from "../test/helpers/allow-egress";
import type { RunningLegacy } from "../test/helpers/legacy-server";
import { serveNodeRoute, serveThisMcp } from "../test/helpers/serve-route";
import { startLegacyProcess } from "./start-legacy-process";

const which = process.argv[2] ?? "get_context";
const CALLS = Number(process.env.CALLS ?? 300);
const CALLS_BY_NAME: Record<string, (c: Client) => Promise<unknown>> = {
  get_context: (c) =>
    c.callTool({ name: "get_context", arguments: { entity: "order", entity_id: "ord_paid" } }),
  navigate: (c) => c.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_paid" } }),
  search_capabilities: (c) =>
    c.callTool({ name: "search_capabilities", arguments: { query: "refund my order" } }),
  "tools/list": (c) => c.listTools(),
};
const call = CALLS_BY_NAME[which];
if (!call) throw new Error(`unknown call ${which}`);

const finished: ReadableSpan[] = [];
let recording = false;
/** CPU this process spent (user + system, ms) from a span's start to its end. */
const cpuAtStart = new Map<string, number>();
const cpuOf = new Map<string, number>();
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const processor: SpanProcessor = {
  onStart: (span: Span, _context: Context) => {
    if (recording) cpuAtStart.set(span.spanContext().spanId, cpuNow());
  },
  onEnd: (span) => {
    if (!recording) return;
    const id = span.spanContext().spanId;
    const started = cpuAtStart.get(id);
    if (started !== undefined) cpuOf.set(id, cpuNow() - started);
    finished.push(span);
  },
  forceFlush: async () => {},
  shutdown: async () => {},
};
const tracing = startTracing({ processor });
const legacy = await startLegacyProcess();
const world = await createWorld("sqlite", legacy as unknown as RunningLegacy);
allowEgressTo(legacy.url);
const db = createDb(world.database.url, { trace: true });
const mcp = createSignpostMcp({ db, publicUrl: "http://localhost:3000", callsPerMinute: 0 });
const restore = serveThisMcp(mcp);
const server = await serveNodeRoute(mcpNodeRoute(() => mcp.answer));
const client = new Client(
  { name: "signpost-trace", version: "1.0.0" },
  { capabilities: {}, versionNegotiation: { mode: process.env.PROTOCOL === "2026" ? "auto" : "legacy" } },
);
await client.connect(
  new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${world.keys.alice}` } },
  }),
);
for (let i = 0; i < 100; i++) await call(client);
const walls: number[] = [];
const direct: number[] = [];
/** The GET beneath, straight to the legacy service as the bench's legacy row makes it. */
const legacyGet = async () => {
  const started = performance.now();
  const res = await fetch(`${legacy.url}/v1/orders/ord_paid`, {
    headers: { authorization: `Bearer ${legacy.apiKeys.acme}` },
  });
  await res.text();
  direct.push(performance.now() - started);
};
for (let i = 0; i < 30; i++) await legacyGet();
direct.length = 0;
recording = true;
const cpuBefore = cpuNow();
for (let i = 0; i < CALLS; i++) {
  const started = performance.now();
  await call(client);
  walls.push(performance.now() - started);
}
const cpuPerCall = (cpuNow() - cpuBefore) / CALLS;
recording = false;
for (let i = 0; i < CALLS; i++) await legacyGet();

const ms = (s: ReadableSpan) => s.duration[0] * 1e3 + s.duration[1] / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const byName = new Map<string, number[]>();
const childrenOf = new Map<string, ReadableSpan[]>();
const parentOf = (s: ReadableSpan) =>
  (s as ReadableSpan & { parentSpanContext?: { spanId: string } }).parentSpanContext?.spanId;
for (const s of finished) {
  byName.set(s.name, [...(byName.get(s.name) ?? []), ms(s)]);
  const p = parentOf(s);
  if (p) childrenOf.set(p, [...(childrenOf.get(p) ?? []), s]);
}
/** A span's time no child covers (children may overlap: a union of their intervals). */
const uncovered = (s: ReadableSpan) => {
  const kids = (childrenOf.get(s.spanContext().spanId) ?? [])
    .map((k) => [k.startTime[0] * 1e3 + k.startTime[1] / 1e6, k.endTime[0] * 1e3 + k.endTime[1] / 1e6])
    .sort((a, b) => (a[0] as number) - (b[0] as number));
  let covered = 0;
  let until = -Infinity;
  for (const [from, to] of kids as [number, number][]) {
    if (to <= until) continue;
    covered += to - Math.max(from, until);
    until = to;
  }
  return ms(s) - covered;
};
const selfByName = new Map<string, number[]>();
const cpuByName = new Map<string, number>();
const selfCpuByName = new Map<string, number>();
for (const s of finished) {
  selfByName.set(s.name, [...(selfByName.get(s.name) ?? []), uncovered(s)]);
  const cpu = cpuOf.get(s.spanContext().spanId) ?? 0;
  const kids = (childrenOf.get(s.spanContext().spanId) ?? []).reduce(
    (sum, k) => sum + (cpuOf.get(k.spanContext().spanId) ?? 0),
    0,
  );
  cpuByName.set(s.name, (cpuByName.get(s.name) ?? 0) + cpu);
  selfCpuByName.set(s.name, (selfCpuByName.get(s.name) ?? 0) + Math.max(0, cpu - kids));
}
console.log(
  `${CALLS} × ${which}: wall p50 ${median(walls).toFixed(2)} ms (client to client); this process's CPU ${cpuPerCall.toFixed(2)} ms per call (client, server and spans)`,
);
console.log(`legacy GET /v1/orders/{id} straight from this process: p50 ${median(direct).toFixed(2)} ms`);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / CALLS;
console.log(
  "span | count per call | p50 ms | p50 not covered by a child, ms | mean not covered, ms per call | CPU ms per call | CPU not in a child",
);
for (const [name, xs] of [...byName].sort((a, b) => median(b[1]) - median(a[1])))
  console.log(
    `${name} | ${(xs.length / CALLS).toFixed(1)} | ${median(xs).toFixed(3)} | ${median(selfByName.get(name) ?? []).toFixed(3)} | ${mean(selfByName.get(name) ?? []).toFixed(3)} | ${((cpuByName.get(name) ?? 0) / CALLS).toFixed(3)} | ${((selfCpuByName.get(name) ?? 0) / CALLS).toFixed(3)}`,
  );
// A timeline of the calls whose HTTP span is nearest the median: each span's start and end, in ms from the request's.
const posts = finished.filter((s) => s.name === "POST /mcp").sort((a, b) => ms(a) - ms(b));
const at = (t: [number, number]) => t[0] * 1e3 + t[1] / 1e6;
for (const post of posts.slice(Math.floor(posts.length / 2) - 1, Math.floor(posts.length / 2) + 2)) {
  const trace = post.spanContext().traceId;
  const zero = at(post.startTime);
  console.log("timeline (ms from the request's start):");
  for (const s of finished
    .filter((x) => x.spanContext().traceId === trace)
    .sort((a, b) => at(a.startTime) - at(b.startTime)))
    console.log(
      `  ${(at(s.startTime) - zero).toFixed(2).padStart(7)} → ${(at(s.endTime) - zero).toFixed(2).padStart(7)}  ${s.name}`,
    );
}
await client.close();
await server.close();
restore();
await mcp.close();
await db.$disconnect();
await world.close();
await legacy.stop();
await tracing?.shutdown();
process.exit(0);
