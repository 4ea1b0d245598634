import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as mcpRoute from "@/app/mcp/route";
import { createAgentRateGuard } from "@/mcp/agent-rate-guard";
import { createSignpostMcp } from "@/mcp/signpost-mcp";
import {
  agentRateFromEnv,
  createRateLimiter,
  DEFAULT_AGENT_CALLS_PER_MINUTE,
} from "@/server/gateway/rate-limiter";
import { createWorld, type World } from "../gateway/gateway-world";
import { serveRoute, serveThisMcp } from "../helpers/serve-route";

describe("call budget per key (rate-limiter-flexible, in memory)", () => {
  // Fake time: the windows are a minute long, and the test must not wait for one.
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("allows the whole budget in a minute's window, then refuses until the window ends", async () => {
    const limiter = createRateLimiter(60);
    for (let i = 0; i < 60; i++) expect(await limiter.take("a", 1)).toEqual({ ok: true });
    expect(await limiter.take("a", 1)).toEqual({ ok: false, retryAfterMs: 60_000 });
    expect(await limiter.take("b", 1)).toEqual({ ok: true }); // another key has its own budget
    vi.advanceTimersByTime(30_000);
    expect(await limiter.take("a", 1)).toEqual({ ok: false, retryAfterMs: 30_000 });
    vi.advanceTimersByTime(30_000);
    expect(await limiter.take("a", 1)).toEqual({ ok: true });
  });

  it("takes a batch's calls all at once or not at all; more than the whole budget never fits", async () => {
    const limiter = createRateLimiter(60);
    expect(await limiter.take("a", 50)).toEqual({ ok: true });
    // Ten are left: eleven are refused whole, and the refusal took none of the ten.
    expect(await limiter.take("a", 11)).toEqual({ ok: false, retryAfterMs: 60_000 });
    expect(await limiter.take("a", 10)).toEqual({ ok: true });
    expect(await limiter.take("a", 1)).toMatchObject({ ok: false });
    expect(await limiter.take("b", 61)).toEqual({ ok: false, retryAfterMs: 60_000, exceedsBudget: true });
    expect(await limiter.take("b", 60)).toEqual({ ok: true });
  });

  it("0 turns the limit off; the setting is a whole number or the default", async () => {
    const off = createRateLimiter(0);
    for (let i = 0; i < 1_000; i++) expect((await off.take("a", 1)).ok).toBe(true);
    expect(agentRateFromEnv(undefined)).toBe(DEFAULT_AGENT_CALLS_PER_MINUTE);
    expect(agentRateFromEnv("0")).toBe(0);
    expect(agentRateFromEnv("120")).toBe(120);
    expect(agentRateFromEnv("12/min")).toBe(DEFAULT_AGENT_CALLS_PER_MINUTE);
  });
});

describe("/mcp call budget per agent key", () => {
  let w: World;
  let server: { url: string; close(): Promise<void> };
  let restore = () => {};
  let endpoint: string;
  beforeAll(async () => {
    w = await createWorld("sqlite");
    const mcp = createSignpostMcp({ db: w.db, publicUrl: "http://localhost:3000", callsPerMinute: 3 });
    restore = serveThisMcp(mcp);
    server = await serveRoute(mcpRoute);
    endpoint = `${server.url}/mcp`;
  });
  afterAll(async () => {
    await server?.close();
    restore();
    await w?.close();
  });

  const listTools = (key: string, id: number) =>
    fetch(endpoint, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: {} }),
    });

  it("answers 429 with Retry-After and a typed outcome past the budget, for that key only, and audits it", async () => {
    for (let i = 1; i <= 3; i++) expect((await listTools(w.keys.alice, i)).status).toBe(200);
    const refused = await listTools(w.keys.alice, 4);
    expect(refused.status).toBe(429);
    // Three a minute: the calls fit again when the key's minute is over (the unit test pins
    // exact values; here only the bounds, the first calls took some time).
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    const body = (await refused.json()) as { error: { message: string; data: Record<string, unknown> } };
    expect(body.error.data).toMatchObject({
      outcome: "temporarily_unavailable",
      reason: "rate_limited",
      retryable: true,
      next_actions: [],
    });
    expect(body.error.message).toMatch(/retry in \d+ s/);
    expect((await listTools(w.keys.alice, 5)).status).toBe(429);
    // Another agent of the same tenant has its own budget.
    expect((await listTools(w.keys.sam, 6)).status).toBe(200);

    // The first refusal is audited at once, on alice's agent; the second waits for the window.
    const rows = await w.db.auditEvent.findMany({ where: { operation: "mcp.rate_limited" } });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.arguments).toMatchObject({ refused: 1 });
    expect(rows[0]).toMatchObject({
      tenantId: "acme",
      agentId: w.agent.alice.agentId,
      outcome: "temporarily_unavailable",
    });
  });

  it("records a burst of refusals as the first one plus one row with the rest when the window closes", async () => {
    const guard = createAgentRateGuard(w.db, 1, 200);
    const gina = w.agent.gina;
    expect((await guard(gina)).ok).toBe(true);
    for (let i = 0; i < 6; i++) expect((await guard(gina)).ok).toBe(false);
    const rowsOf = () =>
      w.db.auditEvent.findMany({
        where: { operation: "mcp.rate_limited", tenantId: "globex" },
        orderBy: { seq: "asc" },
      });
    expect((await rowsOf()).map((r) => r.arguments)).toEqual([{ refused: 1, calls_per_minute: 1 }]);
    // The window closes on its own, even though the agent stopped calling (polled, not timed).
    for (const deadline = Date.now() + 10_000; (await rowsOf()).length < 2 && Date.now() < deadline; )
      await new Promise((r) => setTimeout(r, 100));
    expect((await rowsOf()).map((r) => r.arguments)).toEqual([
      { refused: 1, calls_per_minute: 1 },
      { refused: 5, calls_per_minute: 1 },
    ]);
  });

  it("a real MCP client sees the refusal as an error that says when to retry", async () => {
    const client = new Client({ name: "throttled", version: "1.0.0" });
    const connecting = client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint), {
        requestInit: { headers: { Authorization: `Bearer ${w.keys.alice}` } },
      }),
    );
    await expect(connecting.then(() => client.listTools())).rejects.toThrow(/429|retry in/i);
    await client.close().catch(() => undefined);
  });
});
