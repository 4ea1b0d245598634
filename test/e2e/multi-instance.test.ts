// stays-whole: one cluster of instances started once for every case.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "@/scripts/seed-demo";
import { decideApproval } from "@/server/gateway/approvals";
import { createGateway } from "@/server/gateway/create-gateway";
import { personContext } from "@/server/gateway/trusted-context";
import { createTestDatabase, postgresSkipReason, type TestDatabase } from "../helpers/database";
import { type RunningLegacy, startLegacy } from "../helpers/legacy-server";
import { type RoundRobinProxy, startRoundRobinProxy } from "./helpers/round-robin-proxy";
import {
  callTool,
  mcpAnswers,
  postMcp,
  type ServeInstance,
  startServeInstance,
} from "./helpers/serve-instance";

// Skipped (and counted at the end of the run) when PostgreSQL cannot run here.
const pgReachable = postgresSkipReason() === null;

/**
 * Issue 10, "Done when": two `npx signpost serve` instances on one PostgreSQL behind a small
 * round-robin balancer (in this file), sharing one legacy backend, as docs/operations.md's multi-instance
 * setup describes. The instances start once for the whole file; the tests run in order (the
 * SIGKILL one leaves one instance, the last one stops that one gracefully).
 */
describe.skipIf(!pgReachable)("several instances on one PostgreSQL behind a load balancer", () => {
  const masterKey = randomBytes(32).toString("hex");
  const metricsToken = `metrics-${randomBytes(12).toString("hex")}`;
  const password = `multi-${randomBytes(6).toString("hex")}`;
  const BUDGET = 200;
  let database: TestDatabase;
  let legacy: RunningLegacy;
  let a: ServeInstance;
  let b: ServeInstance;
  let proxy: RoundRobinProxy;
  let keys: Record<string, string>;
  const outputs: Array<() => string> = [];

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    legacy = await startLegacy();
    // The seed seals the connector keys with the instances' master key.
    const saved = process.env.SIGNPOST_MASTER_KEY;
    process.env.SIGNPOST_MASTER_KEY = masterKey;
    try {
      const seeded = await seedDemo(database.db, {
        legacyUrl: legacy.url,
        legacyApiKeys: legacy.apiKeys,
        password,
      });
      if (!seeded) throw new Error("not seeded");
      keys = Object.fromEntries(seeded.agents.map((agent) => [agent.user.split("@")[0], agent.key]));
    } finally {
      if (saved === undefined) delete process.env.SIGNPOST_MASTER_KEY;
      else process.env.SIGNPOST_MASTER_KEY = saved;
    }
    const env = {
      SIGNPOST_AGENT_RATE_LIMIT: String(BUDGET),
      SIGNPOST_JOBS_INTERVAL_S: "1",
      SIGNPOST_METRICS_TOKEN: metricsToken,
      // Short: the SIGTERM test below watches the whole drain (no balancer checks it here).
      SIGNPOST_DRAIN_S: "2",
    };
    [a, b] = await Promise.all([
      startServeInstance({ databaseUrl: database.url, masterKey, env }),
      startServeInstance({ databaseUrl: database.url, masterKey, env }),
    ]);
    outputs.push(a.output, b.output);
    proxy = await startRoundRobinProxy([a.url, b.url]);
  }, 900_000);

  afterAll(async () => {
    await proxy?.close();
    a?.kill();
    b?.kill();
    await Promise.all([a?.exited, b?.exited]);
    await legacy?.stop();
    await database?.drop();
  }, 120_000);

  async function legacyPayments(reference: string): Promise<unknown[]> {
    const res = await fetch(`${legacy.url}/v1/payments?reference=${encodeURIComponent(reference)}`, {
      headers: { authorization: `Bearer ${legacy.apiKeys.acme}` },
    });
    const body = (await res.json()) as { data?: unknown[] } | unknown[];
    return Array.isArray(body) ? body : (body.data ?? []);
  }

  async function faultsRemaining(): Promise<number> {
    const res = await fetch(`${legacy.url}/admin/faults`, { headers: { "x-admin-key": legacy.adminKey } });
    const body = (await res.json()) as { data: { remaining: number | null }[] };
    return body.data.reduce((n, f) => n + (f.remaining ?? 0), 0);
  }

  const checkoutPatch = {
    items: [{ product_id: "prod_mug", quantity: 1 }],
    address_id: "Office",
    shipping_method: "standard",
    payment_type: "card",
  };

  async function startCheckout(baseUrl: string): Promise<{ id: string; version: number }> {
    const started = await callTool(baseUrl, keys.alice as string, "start_action", {
      capability: "checkout",
      patch: checkoutPatch,
    });
    expect(started).toMatchObject({ outcome: "applied", status: "awaiting_approval" });
    return { id: started.action_id, version: started.version };
  }

  async function signIn(baseUrl: string, email: string): Promise<string> {
    const res = await fetch(`${baseUrl}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl },
      body: JSON.stringify({ email, password }),
    });
    expect(res.status).toBe(200);
    return (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  }

  const scrape = async (baseUrl: string) => {
    const res = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(res.status).toBe(200);
    return res.text();
  };
  /** The value of one sample in Prometheus text (0 when absent). */
  const sample = (text: string, name: string, labels: string) => {
    const line = text.split("\n").find((l) => l.startsWith(`${name}{${labels}}`));
    return line ? Number(line.split(" ").at(-1)) : 0;
  };

  it("both are ready; a backend that is down is reported as a degraded connector, not as unready", async () => {
    for (const instance of [a, b]) {
      const live = await fetch(`${instance.url}/api/health/live`);
      expect(live.status).toBe(200);
      const ready = await fetch(`${instance.url}/api/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({
        ready: true,
        status: "ready",
        checks: { database: { ok: true }, master_key: { ok: true }, migrations: { ok: true, pending: 0 } },
        connectors: { shop: { status: "ok" }, helpdesk: { status: "ok" } },
      });
    }
    const config = await database.db.connectorConfig.findFirstOrThrow({
      where: { tenantId: "globex", connector: "helpdesk" },
    });
    await database.db.connectorConfig.update({
      where: { id: config.id },
      data: { settings: { baseUrl: "http://127.0.0.1:9" } },
    });
    try {
      const degraded = await fetch(`${b.url}/api/health/ready`);
      expect(degraded.status).toBe(200);
      const body = await degraded.json();
      expect(body).toMatchObject({
        ready: true,
        status: "degraded",
        connectors: { helpdesk: { status: "degraded", endpoints: 2, answering: 1 }, shop: { status: "ok" } },
      });
      expect(JSON.stringify(body)).not.toContain("127.0.0.1");
    } finally {
      await database.db.connectorConfig.update({
        where: { id: config.id },
        data: { settings: config.settings as object },
      });
    }
  });

  it("an approval on one instance and the confirm on the other: one payment", async () => {
    const { id, version } = await startCheckout(a.url);
    // Alice approves in the console served by instance A…
    const cookie = await signIn(a.url, "alice@acme.test");
    const decided = await fetch(`${a.url}/api/console/actions/${id}/decision`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: a.url, cookie },
      body: JSON.stringify({ decision: "approve", version }),
    });
    expect(decided.status).toBe(200);
    // …her agent confirms through instance B.
    const confirmed = await callTool(b.url, keys.alice as string, "confirm_action", {
      action_id: id,
      idempotency_key: `multi-${id}`,
    });
    expect(confirmed).toMatchObject({ outcome: "applied", effect: { status: "applied" } });
    const actionKey = confirmed.effect.action_key as string;
    expect(await legacyPayments(actionKey)).toHaveLength(1);
    // A retry through instance A replays the first outcome: still one payment.
    const replay = await callTool(a.url, keys.alice as string, "confirm_action", {
      action_id: id,
      idempotency_key: `multi-${id}`,
    });
    expect(replay).toMatchObject({ outcome: "applied", reason: "applied_on_approval" });
    expect(await legacyPayments(actionKey)).toHaveLength(1);
  }, 120_000);

  it("the call budget holds across both: the second instance does not grant a budget of its own", async () => {
    const key = keys.gina as string;
    const batch = Array.from({ length: 50 }, () => ({ method: "tools/list" }));
    const before = [...proxy.served];
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await postMcp(proxy.url, key, batch);
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    // 4 × 50 = the whole budget, whichever instance served them; the fifth batch is refused whole.
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect(proxy.served[0] ?? 0).toBeGreaterThan(before[0] ?? 0);
    expect(proxy.served[1] ?? 0).toBeGreaterThan(before[1] ?? 0);
    const single = await postMcp(proxy.url, key, [{ method: "tools/list" }]);
    expect(single.status).toBe(429);
    const body = (await single.json()) as { error: { data: { reason: string } } };
    expect(body.error.data.reason).toBe("rate_limited");
  }, 120_000);

  it("/metrics needs the token, and its counters move with calls", async () => {
    expect((await fetch(`${b.url}/metrics`)).status).toBe(401);
    expect(
      (await fetch(`${b.url}/metrics`, { headers: { authorization: "Bearer wrong-token-000000" } })).status,
    ).toBe(401);
    const labels = 'face="actions",tool="search_capabilities",outcome="applied"';
    const first = await scrape(b.url);
    for (let i = 0; i < 3; i++)
      expect(
        await callTool(b.url, keys.sam as string, "search_capabilities", { query: "refund an order" }),
      ).toMatchObject({
        outcome: "applied",
      });
    const second = await scrape(b.url);
    expect(sample(second, "signpost_tool_calls_total", labels)).toBe(
      sample(first, "signpost_tool_calls_total", labels) + 3,
    );
    expect(
      sample(
        second,
        "signpost_tool_call_duration_seconds_count",
        'face="actions",tool="search_capabilities"',
      ),
    ).toBeGreaterThanOrEqual(3);
    for (const name of [
      "signpost_effects",
      "signpost_approvals_pending",
      "signpost_monitor_subscribers",
      "signpost_job_runs_total",
      "signpost_http_requests_total",
      "signpost_audit_events_total",
      "signpost_rate_limited_calls_total",
      "signpost_process_cpu_seconds_total",
    ])
      expect(second, name).toContain(`\n${name}`);
    expect(sample(second, "signpost_effects", 'status="applied"')).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it("each request has an id: in the response, the audit row and the access line (which never carries arguments)", async () => {
    const res = await postMcp(a.url, keys.sam as string, [
      {
        method: "tools/call",
        params: { name: "search_capabilities", arguments: { query: "assign ticket 4242" } },
      },
    ]);
    expect(res.status).toBe(200);
    const requestId = res.headers.get("x-request-id") ?? "";
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await mcpAnswers(res))[0]?.result).toBeDefined();
    const row = await database.db.auditEvent.findFirstOrThrow({ where: { requestId } });
    expect(row).toMatchObject({ operation: "capability.searched", face: "actions" });
    // A client's own X-Request-Id is not believed (no trusted proxy here).
    const forged = await fetch(`${a.url}/api/health/live`, {
      headers: { "x-request-id": "chosen-by-client-1234" },
    });
    expect(forged.headers.get("x-request-id")).not.toBe("chosen-by-client-1234");
    const lines = a
      .output()
      .split("\n")
      .filter((l) => l.includes(requestId))
      .map((l) => JSON.parse(l));
    const access = lines.find((l) => l.event === "mcp.tool_call");
    expect(access).toMatchObject({
      tool: "search_capabilities",
      face: "actions",
      outcome: "applied",
      agent: expect.stringMatching(/^sp_[A-Za-z0-9]{8}$/),
      request_id: requestId,
    });
    expect(typeof access.latency_ms).toBe("number");
    expect(lines.some((l) => l.req?.url === "/mcp" && l.res?.status === 200)).toBe(true);
    expect(JSON.stringify(lines)).not.toContain("4242");
    expect(a.output()).not.toContain(keys.sam as string);
  }, 120_000);

  it("SIGKILL of one instance during 20 confirms: no payment twice, every action reconciled by the background job", async () => {
    const gw = createGateway({ db: database.db });
    const alice = await database.db.user.findUniqueOrThrow({ where: { email: "alice@acme.test" } });
    const person = personContext({
      sessionId: "test",
      tenantId: "acme",
      tenantName: "Acme",
      userId: alice.id,
      email: alice.email,
      name: alice.name,
      role: "member",
    });
    const actions: { id: string; version: number }[] = [];
    for (let i = 0; i < 20; i++) actions.push(await startCheckout(proxy.url));
    // The decisions alone (their runs not done, as a stop between the two leaves them): the
    // confirms below are what the kill interrupts.
    for (const action of actions)
      expect(
        await decideApproval(database.db, person, gw.capabilities, {
          action_id: action.id,
          version: action.version,
          decision: "approve",
        }),
      ).toMatchObject({ outcome: "applied" });

    // Every payment is held 1.5 s at the legacy system, so the kill finds instance A mid-send.
    await legacy.injectFault({ match: "POST /v1/payments", mode: "latency", latency_ms: 1500, count: 20 });
    const confirm = (id: string) =>
      callTool(proxy.url, keys.alice as string, "confirm_action", {
        action_id: id,
        idempotency_key: `kill-${id}`,
      }).then(
        (out) => ({ ok: true as const, out }),
        (error: Error) => ({ ok: false as const, error: error.message }),
      );
    const answers = Promise.all(actions.map((action) => confirm(action.id)));
    // Wait until the legacy system holds payments from both instances, then kill A outright.
    while ((await faultsRemaining()) > 12) await new Promise((r) => setTimeout(r, 25));
    a.kill();
    expect(await a.exited).toBeNull();
    const results = await answers;
    const lost = results.filter((r) => !r.ok).length;
    expect(lost).toBeGreaterThan(0); // some confirms were on instance A when it died

    // The background job on B reconciles every action whose effect A left in doubt (once its
    // sender's lease has run out); no agent calls anything meanwhile.
    const unsettled = async () => {
      const rows = await database.db.action.findMany({
        where: { id: { in: actions.map((x) => x.id) } },
        include: { effect: true },
      });
      return rows.filter((row) => {
        if (!row.effect) return false; // never claimed: the agent's retry below takes care of it
        if (row.status === "completed" || row.effect.status === "applied") return false;
        const verification = (row.state as { verification?: { checked_at?: string } | null }).verification;
        return !verification?.checked_at;
      });
    };
    for (;;) {
      if ((await unsettled()).length === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const reconciled = await database.db.auditEvent.findMany({
      where: { operation: "effect.reconciled", actionId: { in: actions.map((x) => x.id) } },
    });
    expect(reconciled.length).toBeGreaterThan(0);
    expect(reconciled.every((row) => row.face === "system" && row.userId === null)).toBe(true);

    // The agent finishes what is left with the calls next_actions offers: confirm again (same
    // key) where nothing was claimed, recover where the system of record showed nothing.
    const tally = { lost, reconciled: reconciled.length, confirmedAgain: 0, recovered: 0 };
    for (const action of actions) {
      const row = await database.db.action.findUniqueOrThrow({
        where: { id: action.id },
        include: { effect: true },
      });
      if (!row.effect || row.effect.status === "failed") tally.confirmedAgain++;
      else if (row.effect.status !== "applied") tally.recovered++;
      if (!row.effect || row.effect.status === "failed")
        expect(
          await callTool(proxy.url, keys.alice as string, "confirm_action", {
            action_id: action.id,
            idempotency_key: `kill-${action.id}`,
          }),
        ).toMatchObject({ outcome: "applied" });
      else if (row.effect.status !== "applied")
        expect(
          await callTool(proxy.url, keys.alice as string, "recover_action", { action_id: action.id }),
        ).toMatchObject({
          outcome: "applied",
        });
    }
    // Printed, not asserted: how the kill fell differs from run to run.
    console.log(`[multi-instance] after the SIGKILL: ${JSON.stringify(tally)}`);
    // One payment per action: none twice, none missing.
    for (const action of actions) {
      const effect = await database.db.effect.findUniqueOrThrow({ where: { actionId: action.id } });
      expect(await legacyPayments(effect.actionKey), action.id).toHaveLength(1);
    }
  }, 600_000);

  it("an instance started with another master key refuses to start, non-zero, saying to share SIGNPOST_MASTER_KEY", async () => {
    const wrong = await startServeInstance({
      databaseUrl: database.url,
      masterKey: randomBytes(32).toString("hex"),
      expectExit: true,
    });
    outputs.push(wrong.output);
    expect(await wrong.exited).toBe(1);
    const refusal = JSON.parse(wrong.output().trim().split("\n").at(-1) ?? "{}");
    expect(refusal).toMatchObject({ level: 60, event: "start_refused", reason: "other_key" });
    expect(refusal.msg).toContain("same SIGNPOST_MASTER_KEY");
    expect(wrong.output()).not.toContain('"event":"listening"');
  }, 300_000);

  it("SIGTERM: the instance drains (readiness 503, still serving), stops accepting, ends monitor streams with a last event, lets the call in flight finish, exits 0", async () => {
    // Support watching the live monitor on this instance: a stream that never ends by itself.
    const cookie = await signIn(b.url, "sam@acme.test");
    const monitor = await fetch(`${b.url}/api/console/stream`, { headers: { cookie } });
    expect(monitor.status).toBe(200);
    const monitorClosed = monitor.text().then(
      (text) => ({ ended: true, text }),
      (error: Error) => ({ ended: false, text: error.message }),
    );
    await legacy.injectFault({ match: "GET /v1/orders/*", mode: "latency", latency_ms: 2000, count: 1 });
    const inFlight = callTool(b.url, keys.alice as string, "get_context", {
      entity: "order",
      entity_id: "ord_paid",
    });
    while ((await faultsRemaining()) > 0) await new Promise((r) => setTimeout(r, 25));
    b.child.kill("SIGTERM");
    // Draining: out of a balancer's rotation, but still answering everything else.
    await expect.poll(async () => (await fetch(`${b.url}/api/health/ready`)).status).toBe(503);
    expect((await fetch(`${b.url}/api/health/live`)).status).toBe(200);
    expect(await inFlight).toMatchObject({ outcome: "applied" });
    expect(await b.exited).toBe(0);
    await expect(fetch(`${b.url}/api/health/live`)).rejects.toThrow();
    // The monitor stream ended by itself with its last event, not cut off.
    const closed = await monitorClosed;
    expect(closed.ended, closed.text).toBe(true);
    expect(closed.text).toMatch(/event: closing\ndata: \{"reason":"shutdown","last_seq":\d+\}\n\n$/);
    expect(b.output()).toContain('"event":"draining"');
    expect(b.output()).toContain('"event":"stopped"');
    // Nothing had to be cut at the end of the grace period: the monitor stream was ended at
    // once, and the call in flight finished by itself.
    expect(b.output()).not.toMatch(/"cut":\d/);
  }, 120_000);

  it("every line the instances printed is a JSON log line", () => {
    let count = 0;
    for (const output of outputs)
      for (const line of output().split("\n")) {
        if (!line.trim()) continue;
        count++;
        expect(() => JSON.parse(line), line.slice(0, 200)).not.toThrow();
      }
    expect(count).toBeGreaterThan(20);
  });
});
