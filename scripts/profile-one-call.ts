// `npx tsx scripts/profile-one-call.ts <dir> [get_context|navigate|search_capabilities|tools/list]`
// (env CALLS=2000, PROTOCOL=2025|2026, DB=sqlite|postgres): a V8 CPU profile of `serve` answering one kind of call
// over and over, written to <dir> when it stops; read it with cpu-profile-summary.ts. A bench's
// profile mixes every call it makes; this one is the call being worked on, and nothing else.
import { randomBytes } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startServeInstance } from "../test/e2e/helpers/serve-instance";
import { createTestDatabase } from "../test/helpers/database";
import { seedDemo } from "./seed-demo";
import { startLegacyProcess } from "./start-legacy-process";

const [dir, which = "get_context"] = process.argv.slice(2);
if (!dir) throw new Error("usage: profile-one-call.ts <dir> [call]");
const CALLS = Number(process.env.CALLS ?? 2000);
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

const masterKey = randomBytes(32).toString("hex");
const legacy = await startLegacyProcess();
const database = await createTestDatabase(process.env.DB === "postgres" ? "postgres" : "sqlite");
process.env.SIGNPOST_MASTER_KEY = masterKey;
const seeded = await seedDemo(database.db, { legacyUrl: legacy.url, legacyApiKeys: legacy.apiKeys });
const key = seeded?.agents.find((a) => a.user === "alice@acme.test")?.key ?? "";
const serve = await startServeInstance({
  databaseUrl: database.url,
  masterKey,
  args: ["--no-migrate"],
  nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`],
  env: {
    SIGNPOST_AGENT_RATE_LIMIT: "1000000",
    SIGNPOST_SKIP_BUILD: "1",
    SIGNPOST_EGRESS_ALLOW: new URL(legacy.url).host,
  },
});
const client = new Client(
  { name: "signpost-profile", version: "1.0.0" },
  { capabilities: {}, versionNegotiation: { mode: process.env.PROTOCOL === "2026" ? "auto" : "legacy" } },
);
await client.connect(
  new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  }),
);
const started = performance.now();
for (let i = 0; i < CALLS; i++) await call(client);
console.log(`${CALLS} × ${which}: ${((performance.now() - started) / CALLS).toFixed(2)} ms each (wall)`);
await client.close();
await serve.stop();
await legacy.stop();
await database.drop();
process.exit(0);
