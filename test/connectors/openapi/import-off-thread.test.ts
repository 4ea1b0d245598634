import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import * as importRoute from "@/app/api/console/config/import/route";
import * as healthRoute from "@/app/api/health/route";
import { loadOpenApiOffThread } from "@/server/connectors/openapi/load-openapi-off-thread";
import { hashSessionToken } from "@/server/gateway/console-session";
import { serveRoute } from "../../helpers/serve-route";
import { createMcpWorld, type McpWorld } from "../../mcp/mcp-world";

/**
 * Issue 19's attack: a few KB of schemas, each level referring twice to the level below, cost the
 * validator 2^levels and held every tenant's calls (19 levels, only previewed: /api/health 4.2 s,
 * another tenant's call 3.6 s). Import work now runs on a thread of its own with a time and a
 * memory budget, after a cap on the values the document expands to: the server's thread answers
 * others meanwhile, and what passes a limit is refused with a problem naming it.
 */

const jar = vi.hoisted(() => ({ token: "" }));
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (name === "sp_session" && jar.token ? { name, value: jar.token } : undefined),
  }),
}));

/** `levels` schemas, each an object whose two properties refer to the next: 2^levels values expanded. */
function doubling(levels: number): string {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++)
    schemas[`L${i}`] = {
      type: "object",
      properties: {
        a: { $ref: `#/components/schemas/L${i + 1}` },
        b: { $ref: `#/components/schemas/L${i + 1}` },
      },
    };
  schemas[`L${levels}`] = { type: "string" };
  return JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Doubling", version: "1" },
    paths: {
      "/things": {
        get: {
          operationId: "listThings",
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/L0" } } },
            },
          },
        },
      },
    },
    components: { schemas },
  });
}

/** The import route's handler as Next calls it (it takes the route's params too). */
const postImport = (request: Request) => importRoute.POST(request, { params: Promise.resolve({}) });

let w: McpWorld;
let health: { url: string; close(): Promise<void> };
let imports: { url: string; close(): Promise<void> };

beforeAll(async () => {
  w = await createMcpWorld("sqlite");
  (globalThis as { __signpostDb?: unknown }).__signpostDb = w.db;
  health = await serveRoute(healthRoute);
  imports = await serveRoute({ POST: postImport });
  const token = randomBytes(24).toString("hex");
  await w.db.session.create({
    data: {
      tokenHash: hashSessionToken(token),
      userId: w.person.adam.userId as string,
      tenantId: w.person.adam.tenantId,
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  jar.token = token;
});
afterAll(async () => {
  await health?.close();
  await imports?.close();
  (globalThis as { __signpostDb?: unknown }).__signpostDb = undefined;
  await w?.close();
});

function preview(document: string) {
  const host = new URL(imports.url).host;
  return fetch(`${imports.url}/api/console/config/import`, {
    method: "POST",
    headers: { origin: `http://${host}`, host, "content-type": "application/json" },
    body: JSON.stringify({
      id: "doubling",
      baseUrl: "http://127.0.0.1:4999",
      readRoles: ["admin"],
      document,
      apply: false,
    }),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; at: number; value: T }> {
  const started = performance.now();
  const value = await run();
  const at = performance.now();
  return { ms: at - started, at, value };
}

describe("an import cannot slow anyone but itself", () => {
  test("while a document that expands 2^18 times is previewed, /api/health and another tenant's MCP call answer at once", async () => {
    const gina = await w.connect(w.keys.gina);
    const healthCall = () => fetch(`${health.url}/api/health`).then((r) => r.status);
    const ginaCall = () => gina.callTool({ name: "navigate", arguments: { uri: "signpost://start" } });
    // Baselines, measured here, on this machine's load of the moment.
    await healthCall();
    await ginaCall();
    const baseHealth = (await timed(healthCall)).ms;
    const baseGina = (await timed(ginaCall)).ms;

    const slow = timed(() => preview(doubling(18)));
    // Let the preview reach its reader before the others ask.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const duringHealth = await timed(healthCall);
    const duringGina = await timed(ginaCall);
    const done = await slow;
    console.log(
      `[import] health ${baseHealth.toFixed(0)} → ${duringHealth.ms.toFixed(0)} ms, another tenant's navigate ${baseGina.toFixed(0)} → ${duringGina.ms.toFixed(0)} ms, the preview ${done.ms.toFixed(0)} ms`,
    );
    // On the request thread the validator held both for seconds (4.2 s at 19 levels).
    expect(duringHealth.at).toBeLessThan(done.at);
    expect(duringGina.at).toBeLessThan(done.at);
    expect(duringHealth.ms).toBeLessThan(baseHealth + 1_000);
    expect(duringGina.ms).toBeLessThan(baseGina + 1_000);
    expect(done.value.status).toBe(200);
  }, 120_000);

  test("a document that expands past the cap is refused with the limit named, nothing stored", async () => {
    const refused = await preview(doubling(24));
    expect(refused.body).toMatchObject({ error: { code: "rejected", details: { code: "too_complex" } } });
    expect(String((refused.body.error as { message?: unknown }).message)).toMatch(
      /more than 5,000,000 values once its \$refs are resolved/,
    );
    expect(await w.db.importedConnector.count()).toBe(0);
  }, 120_000);

  test("past its time budget the reading thread is ended and the import refused, naming the budget", async () => {
    const out = await loadOpenApiOffThread(doubling(18), { timeMs: 200 });
    expect(out).toMatchObject({ ok: false, problem: { code: "import_timeout" } });
    if (!out.ok) expect(out.problem.message).toMatch(/longer than the 0.2 s an import may take/);
  }, 60_000);

  test("past its memory budget the reading thread is ended and the import refused, naming the budget", async () => {
    // GitHub's API (13 MB of JSON) does not fit in 48 MB of heap once parsed.
    const github = readFileSync(
      join(process.cwd(), "node_modules/@octokit/openapi/generated/api.github.com.json"),
      "utf8",
    );
    const out = await loadOpenApiOffThread(github, { heapMb: 48 });
    expect(out).toMatchObject({ ok: false, problem: { code: "import_memory" } });
    if (!out.ok) expect(out.problem.message).toMatch(/more than the 48 MB of memory an import may use/);
  }, 60_000);
});
