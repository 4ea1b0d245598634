// `npx tsx scripts/bench-in-process.ts` (env ROUNDS=20 BLOCK=100, ONLY=get_context,navigate,
// PROTOCOLS=2025,2026, PROFILE=file.cpuprofile): the CPU `/mcp`'s handler spends per call, in
// this process, with no HTTP and no MCP client around it: the handler's `answer` is given each
// request as a 2025-11-25 or a 2026-07-28 client of the SDK sends it (headers and body), the
// legacy service runs in its own process (its CPU is not counted), the database is a fresh
// SQLite one. Every kind of call is made in turn, a block of each per round, so the rows share
// the machine's moments: on a shared 2-core machine a row measured after another met another
// load. Prints each row's median and lowest CPU per call over the rounds (the lowest is the
// least disturbed by other processes). With PROFILE, a V8 CPU profile of the measured rounds
// (read it with cpu-profile-summary.ts).
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import type { McpHttpRequest } from "@/mcp/mcp-http-exchange";
import { createSignpostMcp } from "@/mcp/signpost-mcp";
import { createWorld } from "../test/gateway/gateway-world";
import { allowEgressTo } from "../test/helpers/allow-egress";
import type { RunningLegacy } from "../test/helpers/legacy-server";
import { startLegacyProcess } from "./start-legacy-process";

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const BLOCK = Number(process.env.BLOCK ?? 100);
const only = process.env.ONLY?.split(",");
const protocols = (process.env.PROTOCOLS ?? "2025,2026").split(",") as Array<"2025" | "2026">;
process.env.SIGNPOST_AGENT_RATE_LIMIT = "1000000";

const CALLS: Record<string, [string, Record<string, unknown> | undefined]> = {
  get_context: ["tools/call", { name: "get_context", arguments: { entity: "order", entity_id: "ord_paid" } }],
  navigate: ["tools/call", { name: "navigate", arguments: { uri: "shop://order/ord_paid" } }],
  search_capabilities: [
    "tools/call",
    { name: "search_capabilities", arguments: { query: "refund my order" } },
  ],
  "tools/list": ["tools/list", undefined],
};

const legacy = await startLegacyProcess();
allowEgressTo(legacy.url);
// The world's helpers use only the service's address and keys.
const world = await createWorld("sqlite", legacy as unknown as RunningLegacy);
const mcp = createSignpostMcp({ db: world.db, publicUrl: "http://localhost:3000" });

/** What the SDK's client puts in every 2026-07-28 request (its per-request envelope). */
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "signpost-bench", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
let id = 1;
function request(
  protocol: "2025" | "2026",
  method: string,
  params?: Record<string, unknown>,
): McpHttpRequest {
  const headers: Record<string, string> = {
    host: "localhost:3000",
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    authorization: `Bearer ${world.keys.alice}`,
    "mcp-protocol-version": protocol === "2025" ? "2025-11-25" : "2026-07-28",
  };
  if (protocol === "2026") {
    headers["mcp-method"] = method;
    if (typeof params?.name === "string") headers["mcp-name"] = params.name;
  }
  const message =
    protocol === "2025"
      ? { method, ...(params ? { params } : {}), jsonrpc: "2.0", id: id++ }
      : { method, params: { ...params, _meta: ENVELOPE }, jsonrpc: "2.0", id: id++ };
  const body = JSON.stringify(message);
  return {
    method: "POST",
    url: "http://localhost:3000/mcp",
    signal: new AbortController().signal,
    headers: { get: (name) => headers[name.toLowerCase()] ?? null },
    readBody: async () => ({ tooLarge: false, text: body }),
    toRequest: (text) =>
      new Request("http://localhost:3000/mcp", { method: "POST", headers, body: text ?? body }),
  };
}

async function call(protocol: "2025" | "2026", name: string): Promise<void> {
  const [method, params] = CALLS[name] as [string, Record<string, unknown> | undefined];
  const answer = await mcp.answer(request(protocol, method, params));
  const body = answer instanceof Response ? await answer.text() : answer.body;
  if (answer.status !== 200 || !body || body.includes('"isError":true'))
    throw new Error(`${name} (${protocol}) answered ${answer.status}: ${String(body).slice(0, 300)}`);
}

const rows = Object.keys(CALLS)
  .filter((name) => !only || only.includes(name))
  .flatMap((name) => protocols.map((protocol) => ({ name, protocol, cpu: [] as number[] })));
for (const row of rows) for (let i = 0; i < 100; i++) await call(row.protocol, row.name);

const session = new Session();
if (process.env.PROFILE) {
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
}
for (let round = 0; round < ROUNDS; round++)
  for (let k = 0; k < rows.length; k++) {
    const row = rows[(k + round) % rows.length] as (typeof rows)[number];
    const before = process.cpuUsage();
    for (let i = 0; i < BLOCK; i++) await call(row.protocol, row.name);
    const used = process.cpuUsage(before);
    row.cpu.push((used.user + used.system) / 1000 / BLOCK);
  }
if (process.env.PROFILE) {
  const { profile } = await session.post("Profiler.stop");
  writeFileSync(process.env.PROFILE, JSON.stringify(profile));
}

console.log(`CPU per call of /mcp's handler in this process, ${ROUNDS} rounds × ${BLOCK} calls per row\n`);
console.log("| call | protocol | median ms | lowest ms |\n| --- | --- | --- | --- |");
for (const row of rows) {
  const sorted = [...row.cpu].sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1] ?? 0;
  console.log(`| ${row.name} | ${row.protocol} | ${median.toFixed(3)} | ${(sorted[0] ?? 0).toFixed(3)} |`);
}
await world.close();
await legacy.stop();
process.exit(0);
