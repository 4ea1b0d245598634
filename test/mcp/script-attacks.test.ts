import { execFile } from "node:child_process";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as healthRoute from "@/app/api/health/route";
import { mintAgentKey } from "@/server/gateway/agent-keys";
import { serveRoute } from "../helpers/serve-route";
import { createMcpWorld, type McpWorld, sc } from "./mcp-world";

/**
 * The red team's attacks on run_script, each through a real MCP client over HTTP: a script that
 * outruns QuickJS's interrupt polling, keys that hold every sandbox, a client that goes away,
 * values nested past what threads can pass, replaced built-ins, and a thrown value whose getter
 * spins. Each ends in a typed outcome within its limit, other tenants keep being served, and
 * /api/health keeps answering. Small tenant limits (stored, as an admin sets them) keep it fast.
 */

type Outcome = ReturnType<typeof sc>;

const CHECKOUT =
  "{ capability: 'checkout', patch: { items: [{ product_id: 'prod_mug', quantity: 1 }], address_id: 'Office', shipping_method: 'standard', payment_type: 'balance' } }";

/**
 * Wall limits here sit far above the limits and orders under test. The wall counts from the
 * request's arrival (waiting for a thread, every host call, a navigate to the shop); the CPU
 * meter counts the script's own slices on its thread. At load 20–30 on two cores a 3 s wall ran
 * out first (a navigate alone took seconds), so a run that proves nothing was cut short. A limit
 * that fails to hold is still caught: the roomy wall then stops the run, and the outcome says so.
 */
const ROOMY_WALL_MS = 20_000;

describe("run_script under attack", () => {
  let w: McpWorld;
  let health: { url: string; close(): Promise<void> };
  const clients = new Map<string, Client>();
  const saved = process.env.SIGNPOST_LEGACY_URL;

  async function client(key: string): Promise<Client> {
    const known = clients.get(key);
    if (known) return known;
    const connected = await w.connect(key, { faces: "script" });
    clients.set(key, connected);
    return connected;
  }

  /** A run's outcome and when its answer came (to order answers, never to bound their time). */
  async function run(key: string, code: string): Promise<{ out: Outcome; at: number }> {
    const c = await client(key);
    const result = await c.callTool({ name: "run_script", arguments: { code } });
    return { out: sc(result), at: performance.now() };
  }

  const limits = (tenantId: string, scriptLimits: Record<string, number>) =>
    w.db.tenant.update({ where: { id: tenantId }, data: { scriptLimits } });

  /** More agent keys in a tenant (made here if new), each its own key for the per-key claim. */
  async function keysIn(tenantId: string, count: number): Promise<string[]> {
    await w.db.tenant.upsert({
      where: { id: tenantId },
      create: { id: tenantId, name: tenantId },
      update: {},
    });
    const user = await w.db.user.create({
      data: {
        tenantId,
        email: `${tenantId}-${Math.random()}@example.com`,
        name: "Extra",
        role: "member",
        passwordHash: "x",
      },
    });
    const keys: string[] = [];
    for (let i = 0; i < count; i++) {
      const minted = mintAgentKey();
      await w.db.agent.create({
        data: {
          tenantId,
          name: `extra ${i}`,
          userId: user.id,
          keyHash: minted.keyHash,
          keyPrefix: minted.keyPrefix,
        },
      });
      keys.push(minted.key);
    }
    return keys;
  }

  /** /api/health asked by another process `afterS` into a run, timed by that process. */
  const healthDuring = (afterS: number) =>
    new Promise<{ status: number; at: number }>((resolve, reject) => {
      execFile(
        "sh",
        [
          "-c",
          `sleep ${afterS}; curl -s -o /dev/null --max-time 20 -w '%{http_code}' ${health.url}/api/health`,
        ],
        (error, stdout) => {
          if (error) return reject(error);
          resolve({ status: Number(stdout.trim()), at: performance.now() });
        },
      );
    });

  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    (globalThis as { __signpostDb?: unknown }).__signpostDb = w.db;
    process.env.SIGNPOST_LEGACY_URL = w.legacy.url;
    health = await serveRoute(healthRoute);
  });
  afterAll(async () => {
    (globalThis as { __signpostDb?: unknown }).__signpostDb = undefined;
    if (saved === undefined) delete process.env.SIGNPOST_LEGACY_URL;
    else process.env.SIGNPOST_LEGACY_URL = saved;
    await health?.close();
    await w?.close();
  });

  it.each([
    ["a 16 MiB indexOf per step", "const s = 'x'.repeat(1 << 24); for (;;) s.indexOf('y');"],
    [
      "a 300k-element sort per step",
      "const a = Array.from({ length: 300000 }, (_, i) => (i * 7919) % 300000); for (;;) a.slice().sort();",
    ],
  ])("CPU time holds against %s, which QuickJS's interrupt polling misses", async (_name, code) => {
    // 1 s of CPU: long enough that the health check (another process, asked 0.2 s in) is
    // answered inside it even when starting that process takes a loaded machine half a second.
    await limits("acme", { wallMs: ROOMY_WALL_MS, cpuMs: 1_000 });
    // A warm thread (the previous case's was ended): its start is not what is timed here.
    await run(w.keys.alice, "return 'warm'");
    const during = healthDuring(0.2);
    const spun = await run(w.keys.alice, code);
    const { out } = spun;
    expect(out).toMatchObject({ outcome: "rejected", reason: "script_timeout" });
    // Stopped by the CPU limit, not the wall: the message names which.
    expect(out.message).toContain("CPU time (1000 ms)");
    expect((out.usage as { cpu_ms: number }).cpu_ms).toBeGreaterThanOrEqual(1_000);
    // The server answered its health check while the script still spun.
    const h = await during;
    expect(h.status).toBe(200);
    expect(h.at).toBeLessThan(spun.at);
    // The thread it spun on was replaced: the next script runs.
    expect((await run(w.keys.alice, "return 'next'")).out).toMatchObject({
      outcome: "applied",
      result: "next",
    });
  });

  it("two keys sleeping in scripts do not hold the sandbox: another tenant's script answers at once", async () => {
    await limits("acme", { wallMs: ROOMY_WALL_MS, cpuMs: 500 });
    await limits("globex", { wallMs: ROOMY_WALL_MS, cpuMs: 500 });
    // Each says when it woke / began, by the sandbox's clock: the order of those moments is the
    // claim, not how long the answers took to travel back on a loaded machine.
    const hog = "await sleep(3000); return ['hog', Date.now()]";
    const hogs = [run(w.keys.alice, hog), run(w.keys.adam, hog)];
    await new Promise((resolve) => setTimeout(resolve, 300));
    const gina = await run(
      w.keys.gina,
      "const began = Date.now(); return [(await navigate('shop://orders')).outcome, began]",
    );
    expect(gina.out).toMatchObject({ outcome: "applied", result: ["applied", expect.any(Number)] });
    const [, ginaBegan] = gina.out.result as [string, number];
    // It waited behind the hogs' sleeps when a thread was held for a whole run: now it runs
    // before either hog wakes.
    for (const h of await Promise.all(hogs)) {
      expect(h.out).toMatchObject({ outcome: "applied", result: ["hog", expect.any(Number)] });
      expect(ginaBegan).toBeLessThan((h.out.result as [string, number])[1]);
    }
  });

  it("two keys spinning in scripts hold up only their own tenant's thread: another tenant's script answers at once", async () => {
    await limits("acme", { wallMs: ROOMY_WALL_MS, cpuMs: 2000 });
    await limits("globex", { wallMs: ROOMY_WALL_MS, cpuMs: 500 });
    // Both threads started (two runs at once), so that no thread's start is timed below.
    await Promise.all([run(w.keys.alice, "await sleep(200)"), run(w.keys.gina, "await sleep(200)")]);
    const spinners = [run(w.keys.alice, "while (true) {}"), run(w.keys.adam, "while (true) {}")];
    await new Promise((resolve) => setTimeout(resolve, 300));
    const gina = await run(w.keys.gina, "return 'gina'");
    expect(gina.out).toMatchObject({ outcome: "applied", result: "gina" });
    // With one spinner per thread, it waited for a spinner's CPU time (2 s) to end: now it
    // answers while both still spin.
    for (const s of await Promise.all(spinners)) {
      expect(s.out).toMatchObject({ reason: "script_timeout" });
      expect(gina.at).toBeLessThan(s.at);
    }
  });

  it("a tenant runs at most 4 scripts at once: its fifth key is refused, retryable, and others run", async () => {
    // Sleeps long enough that the four are surely running when the fifth comes (on a loaded
    // machine four calls took over a second to reach the sandbox), and still running after it.
    await limits("acme", { wallMs: 12_000, cpuMs: 500 });
    const [fourth, fifth] = await keysIn("acme", 2);
    const hog = "await sleep(6000); return 'hog'";
    const hogs = [w.keys.alice, w.keys.adam, w.keys.sam, fourth as string].map((key) => run(key, hog));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const refused = await run(fifth as string, "return 'fifth'");
    expect(refused.out).toMatchObject({ outcome: "rejected", reason: "script_busy", retryable: true });
    expect(refused.out.message).toContain("This tenant already runs 4 scripts");
    expect((await run(w.keys.gina, "return 'gina'")).out).toMatchObject({ result: "gina" });
    for (const h of await Promise.all(hogs))
      expect(h.out).toMatchObject({ outcome: "applied", result: "hog" });
  });

  it("when every sandbox slot stays taken, a run waits a bounded time and answers sandbox_busy with a retry hint", async () => {
    // 6 s: on a loaded machine sixteen runs reach their slots over seconds, and gina's answer
    // (her 1.5 s wall) must still come while every slot is held.
    const hog = "await sleep(6000); return 'hog'";
    const keys: string[] = [];
    // 16 slots (2 threads × 8), filled by four tenants of four keys each (the per-tenant cap).
    for (const tenant of ["t1", "t2", "t3", "t4"]) {
      keys.push(...(await keysIn(tenant, 4)));
      await limits(tenant, { wallMs: 12_000, cpuMs: 500 });
    }
    await limits("globex", { wallMs: 1500, cpuMs: 500 });
    await Promise.all(keys.map((key) => client(key)));
    const hogs = keys.map((key) => run(key, hog));
    await new Promise((resolve) => setTimeout(resolve, 700));
    const gina = await run(w.keys.gina, "return 'gina'");
    expect(gina.out).toMatchObject({
      outcome: "temporarily_unavailable",
      reason: "sandbox_busy",
      retryable: true,
      retry_after_s: 5,
    });
    // The wait ended with gina's own wall time (1.5 s), before the hogs' sleeps (6 s) did.
    expect((await healthDuring(0)).status).toBe(200);
    for (const h of await Promise.all(hogs)) {
      expect(h.out).toMatchObject({ outcome: "applied", result: "hog" });
      expect(gina.at).toBeLessThan(h.at);
    }
    expect((await run(w.keys.gina, "return 'after'")).out).toMatchObject({ result: "after" });
  });

  it("runs sharing a thread stay within its engine memory: at 256 MiB each, a seventh run waits for a slot", async () => {
    const keys = [...(await keysIn("big1", 4)), ...(await keysIn("big2", 3))];
    for (const tenant of ["big1", "big2"])
      await limits(tenant, { wallMs: 8000, cpuMs: 500, memoryBytes: 256 * 1024 * 1024 });
    await Promise.all(keys.map((key) => client(key)));
    // 2 threads × 1 GiB: three runs that may each grow to 272 MiB per thread.
    // Each run says when its sleep began and ended (the sandbox's clock): a run that began only
    // after another's sleep had ended waited for that slot. Order, not duration, is compared.
    const runs = await Promise.all(
      keys.map((key) => run(key, "const began = Date.now(); await sleep(2000); return [began, Date.now()]")),
    );
    for (const r of runs) expect(r.out).toMatchObject({ outcome: "applied" });
    const spans = runs.map((r) => r.out.result as [number, number]);
    const firstEnd = Math.min(...spans.map(([, ended]) => ended));
    expect(spans.filter(([began]) => began >= firstEnd)).toHaveLength(1);
  });

  it("a client that goes away cancels its script: no action is started after it left", async () => {
    await limits("acme", { wallMs: 6000, cpuMs: 500 });
    const headers = {
      Authorization: `Bearer ${w.keys.sam}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    };
    const code = `await sleep(1500); return (await startAction(${CHECKOUT})).outcome`;
    // Sam's earlier runs (the hogs above) have rows of their own: only a later one is this run's.
    const before = await w.db.auditEvent.findFirst({ where: { tenantId: "acme" }, orderBy: { seq: "desc" } });
    await expect(
      fetch(`${w.endpoint}?faces=script`, {
        method: "POST",
        headers,
        signal: AbortSignal.timeout(400),
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "run_script", arguments: { code } },
        }),
      }),
    ).rejects.toThrow();
    // Until the run's own audit row says it ended (past its 1.5 s sleep, when it would have
    // started the action), not a fixed wait a loaded machine can outrun.
    const ranRow = () =>
      w.db.auditEvent.findFirst({
        where: { agentId: w.agent.sam.agentId, operation: "script.ran", seq: { gt: before?.seq ?? 0 } },
        orderBy: { seq: "desc" },
      });
    const waitUntil = Date.now() + 20_000;
    let ran = await ranRow();
    while (!ran && Date.now() < waitUntil) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ran = await ranRow();
    }
    // Past the script's sleep even if the row came early, so a start after it would show.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await w.db.action.count({ where: { agentId: w.agent.sam.agentId } })).toBe(0);
    expect(ran).toMatchObject({ outcome: "rejected" });
    expect(ran?.message).toContain("cancelled");
  });

  it("values nested past what threads can pass end typed, at once, in both directions", async () => {
    // Building and passing 5,000 levels took over 2 s of the thread's time at load 30 (the meter
    // is the slices' elapsed time): the claim is a typed refusal instead of a run left to time out.
    await limits("acme", { wallMs: ROOMY_WALL_MS, cpuMs: 10_000 });
    const deepResult = await run(
      w.keys.alice,
      "let a = []; for (let i = 0; i < 5000; i++) a = [a]; return a;",
    );
    expect(deepResult.out).toMatchObject({ outcome: "rejected", reason: "script_output_too_large" });
    expect(deepResult.out.message).toContain("deeper than 64 levels");
    const deepArgs = await run(
      w.keys.alice,
      "let a = []; for (let i = 0; i < 5000; i++) a = [a]; const r = await navigate(a); return [r.outcome, r.reason];",
    );
    expect(deepArgs.out).toMatchObject({ outcome: "applied", result: ["rejected", "invalid_arguments"] });
    // Typed refusals, not the wall limit: neither run was left to time out.
    for (const r of [deepResult, deepArgs]) expect(r.out.reason).not.toBe("script_timeout");
  });

  it.each([
    [
      "JSON.stringify returning 30,000 brackets",
      'JSON.stringify = () => "[".repeat(30000) + "]".repeat(30000); return 1;',
    ],
    ["JSON.stringify returning not JSON", 'JSON.stringify = () => "not json"; return 1;'],
    ["Promise.prototype.then replaced", "Promise.prototype.then = function () { return 5 }; return 1;"],
    [
      "JSON.parse replaced",
      "JSON.parse = () => ({ outcome: 'forged' }); return (await navigate('shop://orders')).outcome;",
    ],
  ])("a script that replaced built-ins (%s) still gets its own result", async (_name, code) => {
    await limits("acme", { wallMs: ROOMY_WALL_MS, cpuMs: 500 });
    const { out } = await run(w.keys.alice, code);
    // Its own result, not a limit: the run was not left hanging until the wall limit.
    expect(out.outcome).toBe("applied");
    expect([1, "applied"]).toContain(out.result);
  });

  it("a thrown value whose getter spins is stopped at the CPU limit, and its CPU time is reported", async () => {
    await limits("acme", { wallMs: ROOMY_WALL_MS, cpuMs: 500 });
    const { out } = await run(w.keys.alice, "throw { get message() { while (true) {} } }");
    expect(out).toMatchObject({ outcome: "rejected", reason: "script_timeout" });
    // The CPU limit (500 ms) stopped it, not the wall.
    expect(out.message).toContain("CPU time (500 ms)");
    expect((out.usage as { cpu_ms: number }).cpu_ms).toBeGreaterThanOrEqual(500);
  });

  it("a flood of unawaited sleeps ends as a limit, never a host error", async () => {
    await limits("acme", { wallMs: 3000, cpuMs: 500 });
    const { out } = await run(
      w.keys.alice,
      "let e = null; try { for (let i = 0; i < 3e6; i++) sleep(0).catch(() => 0) } catch (x) { e = x } return e && { s: String(e) }",
    );
    expect(JSON.stringify(out)).not.toMatch(/ArrayBuffer|detached/i);
    expect(["script_timeout", "script_memory", "script_error"]).toContain(out.reason);
  });
});
