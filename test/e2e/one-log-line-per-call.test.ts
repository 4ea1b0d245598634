import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "@/scripts/seed-demo";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { type RunningLegacy, startLegacy } from "../helpers/legacy-server";
import { mcpAnswers, postMcp, type ServeInstance, startServeInstance } from "./helpers/serve-instance";

// biome-ignore lint/suspicious/noExplicitAny: log lines are whatever JSON serve printed
type Line = any;

/**
 * Under `serve`, an MCP request's tool call is logged on the request's access line: one line
 * per call instead of an access line and a tool-call line, each walked by the logger's redaction
 * (two lines were ~6% of serve's CPU per call). Nothing is lost: the access fields, the call's
 * fields (its own latency as `tool_latency_ms`), redaction; a batch's further calls keep lines of
 * their own.
 */
describe("serve logs one line per MCP tool call", () => {
  const masterKey = randomBytes(32).toString("hex");
  let database: TestDatabase;
  let legacy: RunningLegacy;
  let serve: ServeInstance;
  let key: string;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    legacy = await startLegacy();
    const saved = process.env.SIGNPOST_MASTER_KEY;
    process.env.SIGNPOST_MASTER_KEY = masterKey;
    try {
      const seeded = await seedDemo(database.db, { legacyUrl: legacy.url, legacyApiKeys: legacy.apiKeys });
      key = seeded?.agents.find((a) => a.user === "alice@acme.test")?.key ?? "";
    } finally {
      if (saved === undefined) delete process.env.SIGNPOST_MASTER_KEY;
      else process.env.SIGNPOST_MASTER_KEY = saved;
    }
    serve = await startServeInstance({
      databaseUrl: database.url,
      masterKey,
      args: ["--no-migrate"],
      env: {
        SIGNPOST_EGRESS_ALLOW: new URL(legacy.url).host,
        ...(process.env.SIGNPOST_E2E_REUSE_BUILD === "1" ? { SIGNPOST_SKIP_BUILD: "1" } : {}),
      },
    });
  }, 900_000);

  afterAll(async () => {
    await serve?.stop();
    await legacy?.stop();
    await database?.drop();
  });

  const linesOf = (requestId: string): Line[] =>
    serve
      .output()
      .split("\n")
      .filter((line) => line.includes(requestId))
      .map((line) => JSON.parse(line) as Line);

  it("a tool call: its access line carries the call, redacted, and no other line names the request", async () => {
    const res = await fetch(`${serve.url}/mcp?faces=actions&note=sk_live_${"a".repeat(24)}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "search_capabilities", arguments: { query: "refund order 4242" } },
      }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const requestId = res.headers.get("x-request-id") ?? "";
    // The access line is written when the response has closed.
    await expect.poll(() => linesOf(requestId).length).toBeGreaterThan(0);
    const lines = linesOf(requestId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      event: "mcp.tool_call",
      face: "actions",
      tool: "search_capabilities",
      outcome: "applied",
      agent: expect.stringMatching(/^sp_[A-Za-z0-9]{8}$/),
      tenant: "acme",
      request_id: requestId,
      req: { method: "POST" },
      res: { status: 200 },
    });
    expect(typeof lines[0].latency_ms).toBe("number");
    expect(typeof lines[0].tool_latency_ms).toBe("number");
    expect(lines[0].req.url).toMatch(/^\/mcp\?faces=actions&note=/);
    expect(JSON.stringify(lines)).not.toContain("sk_live_");
    expect(JSON.stringify(lines)).not.toContain("4242");
    expect(serve.output()).not.toContain(key);
  }, 60_000);

  it("a batch of two calls: the first on the access line, the second on a line of its own", async () => {
    const res = await postMcp(serve.url, key, [
      { method: "tools/call", params: { name: "search_capabilities", arguments: { query: "refund" } } },
      { method: "tools/call", params: { name: "search", arguments: { query: "orders" } } },
    ]);
    expect(res.status).toBe(200);
    expect(await mcpAnswers(res)).toHaveLength(2);
    const requestId = res.headers.get("x-request-id") ?? "";
    await expect.poll(() => linesOf(requestId).length).toBe(2);
    const lines = linesOf(requestId);
    const access = lines.filter((line) => line.req?.url === "/mcp");
    expect(access).toHaveLength(1);
    expect(lines.every((line) => line.event === "mcp.tool_call")).toBe(true);
    expect(lines.map((line) => line.tool).sort()).toEqual(["search", "search_capabilities"]);
    const own = lines.find((line) => line.req === undefined);
    expect(own).toMatchObject({ request_id: requestId, tenant: "acme", msg: "mcp tool call" });
    expect(typeof own.latency_ms).toBe("number");
  }, 60_000);
});
