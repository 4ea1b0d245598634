// `npm run bench` (third part): what connecting more systems costs. For 2, 10 and 50 imported
// OpenAPI documents (real ones: GitHub's, from @octokit/openapi, and @readme/oas-examples), each
// in a fresh child process: the agent's tools/list (Signpost's, and a one-tool-per-operation
// wrapper of the same documents), the first request's start-up (generating the tenant's
// connectors from their stored documents, as a server does), heap, and search /
// search_capabilities latency with how often the right listing comes first. Compare ratios
// within one run; the machine is shared.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createSignpostBrowseBackend } from "@/mcp/signpost-browse-backend";
import { routeTable } from "@/server/browse/browse-routes";
import { search } from "@/server/browse/search";
import { connectors } from "@/server/connectors/connector-registry";
import { prepareOpenApiImport } from "@/server/connectors/openapi/prepare-openapi-import";
import { saveImportedConnector } from "@/server/connectors/openapi/save-imported-connector";
import { tenantConnectors } from "@/server/connectors/tenant-connectors";
import { createGateway } from "@/server/gateway/create-gateway";
import { jsonTokens } from "../test/bench/json-tokens";
import { wrapOpenApiAsTools } from "../test/bench/openapi-tool-wrapper";
import { createMcpWorld } from "../test/mcp/mcp-world";

process.env.SIGNPOST_MASTER_KEY ??= randomBytes(32).toString("hex");
process.env.SIGNPOST_AGENT_RATE_LIMIT ??= "0";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const tokens = jsonTokens;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const SIZES = [2, 10, 50];

/** The documents, big ones first in each size: GitHub's API (1,000+ operations each), then small ones. */
function documents(): Array<{ name: string; path: string }> {
  const github = ["api.github.com", "ghec", "ghes-3.19", "ghes-3.18", "ghes-3.17"].map((name) => ({
    name,
    path: require.resolve(`@octokit/openapi/generated/${name}.json`),
  }));
  const examples = dirname(require.resolve("@readme/oas-examples/package.json"));
  const small = ["3.0", "3.1", "2.0"].flatMap((version) =>
    readdirSync(join(examples, version, "json"))
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => ({ name: `${version}/${f}`, path: join(examples, version, "json", f) })),
  );
  // 2: one GitHub + one small; 10: two GitHub + eight small; 50: all five + 45 small.
  const [g1, g2, ...rest] = github;
  return [g1, small[0], g2, ...small.slice(1, 8), ...rest, ...small.slice(8)].filter(
    (d): d is { name: string; path: string } => Boolean(d),
  );
}

/** A stand-in for every imported system: answers any read at once with an empty list. */
function stubSystem(): Promise<{ url: string; close(): void }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end("[]");
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    }),
  );
}

interface SizeResult {
  connectors: number;
  documents: number;
  refused: string[];
  operations: number;
  routes: number;
  signpostToolsTokens: number;
  wrapperTools: number;
  wrapperToolsTokens: number;
  startupMs: number;
  heapMb: number;
  searchP50: number;
  searchP95: number;
  searchTop1: number;
  capabilitiesP50: number;
  capabilitiesP95: number;
}

/** One size, in this (child) process. */
async function measure(size: number): Promise<SizeResult> {
  const w = await createMcpWorld("sqlite");
  const stub = await stubSystem();
  const picked: Array<{ name: string; text: string; id: string }> = [];
  const refused: string[] = [];
  let wrapperTools = 0;
  let wrapperToolsTokens = 0;
  for (const doc of documents()) {
    if (picked.length >= size) break;
    const text = readFileSync(doc.path, "utf8");
    const id = `api${String(picked.length + 1).padStart(2, "0")}`;
    const prepared = await prepareOpenApiImport(w.db, {
      tenantId: "acme",
      text,
      id,
      baseUrl: stub.url,
      readRoles: ["admin", "support", "member"],
      secrets: {},
      self: { origins: ["http://localhost:3000"], ports: [3000] },
    });
    if (!prepared.ok) {
      refused.push(`${doc.name}: ${prepared.problem.message}`);
      continue;
    }
    await w.db.$transaction((tx) => saveImportedConnector(tx, prepared.value));
    const wrapped = await wrapOpenApiAsTools(JSON.parse(text));
    wrapperTools += wrapped.length;
    wrapperToolsTokens += tokens(wrapped);
    picked.push({ name: doc.name, text, id });
  }
  const client = await w.connect(w.keys.alice);
  const signpostToolsTokens = tokens((await client.listTools()).tools);

  // Start-up: the first request after a start generates the tenant's connectors from the rows.
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const among = await tenantConnectors(w.db, "acme");
  const table = routeTable(among);
  const gw = createGateway({ db: w.db });
  const backend = createSignpostBrowseBackend(gw, w.agent.alice, {
    publicUrl: "http://localhost:3000",
    tenantName: "Acme",
  });
  await search(backend, "warm up");
  const startupMs = performance.now() - started;
  gc();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;

  // Queries: each imported listing's title, as a person would name it; the right answer is it.
  const listings = table.filter((r) => r.startPoint && !r.pattern.includes("{") && /^api\d/.test(r.pattern));
  const queries = Array.from(
    { length: 100 },
    (_, i) => listings[(i * 7919) % Math.max(1, listings.length)],
  ).filter((r) => r !== undefined);
  const times: number[] = [];
  let top1 = 0;
  for (const route of queries) {
    const t = performance.now();
    const page = await search(backend, `${route.title} ${route.pattern.split("://")[0]}`);
    times.push(performance.now() - t);
    if (page.links[0] === route.pattern) top1++;
  }
  const capabilityTimes: number[] = [];
  for (const q of ["refund my order", "add a note", "create an issue", "assign the ticket", "buy two mugs"]) {
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await gw.searchCapabilities(w.agent.alice, { query: q });
      capabilityTimes.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  capabilityTimes.sort((a, b) => a - b);
  const operations = among
    .slice(connectors().length)
    .reduce(
      (n, c) => n + ((c as { openapi?: { report: { operations: number } } }).openapi?.report.operations ?? 0),
      0,
    );
  stub.close();
  await w.close();
  return {
    connectors: among.length,
    documents: picked.length,
    refused,
    operations,
    routes: table.length,
    signpostToolsTokens,
    wrapperTools,
    wrapperToolsTokens,
    startupMs,
    heapMb,
    searchP50: quantile(times, 0.5),
    searchP95: quantile(times, 0.95),
    searchTop1: queries.length ? top1 / queries.length : 0,
    capabilitiesP50: quantile(capabilityTimes, 0.5),
    capabilitiesP95: quantile(capabilityTimes, 0.95),
  };
}

function row(cells: Array<string | number>) {
  return `| ${cells.join(" | ")} |`;
}

async function main() {
  const child = process.argv.indexOf("--size");
  if (child >= 0) {
    const result = await measure(Number(process.argv[child + 1]));
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
    process.exit(0);
  }
  const results: SizeResult[] = [];
  for (const size of SIZES) {
    // A fresh process per size: start-up and heap are not the previous size's leftovers.
    const out = execFileSync(
      process.execPath,
      ["--import", "tsx", "--expose-gc", join(here, "bench-connectors.ts"), "--size", String(size)],
      { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, env: { ...process.env, LOG_LEVEL: "error" } },
    );
    const line = out.split("\n").find((l) => l.startsWith("RESULT "));
    if (!line) throw new Error(`size ${size} printed no result:\n${out.slice(-2000)}`);
    results.push(JSON.parse(line.slice(7)) as SizeResult);
  }
  console.log("\n## Connectors: what each one more system costs (imported OpenAPI documents)\n");
  console.log(
    row([
      "imported documents",
      "operations",
      "routes",
      "Signpost tools/list tokens",
      "one tool per operation: tools / tokens",
      "start-up ms (first request)",
      "heap MB",
      "search p50 / p95 ms",
      "right listing first",
      "search_capabilities p50 / p95 ms",
    ]),
  );
  console.log(row(Array(10).fill("---")));
  for (const r of results)
    console.log(
      row([
        r.documents,
        r.operations,
        r.routes,
        r.signpostToolsTokens,
        `${r.wrapperTools} / ${r.wrapperToolsTokens}`,
        r.startupMs.toFixed(0),
        r.heapMb.toFixed(1),
        `${r.searchP50.toFixed(1)} / ${r.searchP95.toFixed(1)}`,
        `${(r.searchTop1 * 100).toFixed(0)}%`,
        `${r.capabilitiesP50.toFixed(2)} / ${r.capabilitiesP95.toFixed(2)}`,
      ]),
    );
  const refused = results.flatMap((r) => r.refused);
  if (refused.length)
    console.log(`\nDocuments the import refused (left out): ${[...new Set(refused)].join("; ")}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
