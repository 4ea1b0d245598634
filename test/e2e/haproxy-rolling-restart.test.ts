import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "@/scripts/seed-demo";
import { createTestDatabase, postgresSkipReason, type TestDatabase } from "../helpers/database";
import { type RunningLegacy, startLegacy } from "../helpers/legacy-server";
import { haproxyAvailable, haproxyPath, type RunningHaproxy, startHaproxy } from "./helpers/haproxy";
import { mcpAnswers, postMcp, type ServeInstance, startServeInstance } from "./helpers/serve-instance";

const pgReachable = postgresSkipReason() === null;
// Counted at the end of the run (test/setup/haproxy-skip-reporter.ts) when it cannot run here.
const hasHaproxy = haproxyAvailable();
if (!hasHaproxy)
  console.warn(
    `[signpost e2e] ${haproxyPath} missing (apt-get install -y haproxy): HAProxy rolling restart SKIPPED`,
  );

/**
 * Issue 22, item 4: no error while an instance leaves. Two `serve` instances on one PostgreSQL
 * behind HAProxy running docs/haproxy.cfg as shipped; agents call MCP tools and health through
 * it without pause while each instance in turn gets SIGTERM and is started again on its port.
 * The instance drains (readiness 503, still serving) until HAProxy has taken it out, so not one
 * request fails; a live monitor stream on a leaving instance ends with its last event.
 */
describe.skipIf(!pgReachable || !hasHaproxy)("HAProxy in front of two instances (PostgreSQL)", () => {
  const masterKey = randomBytes(32).toString("hex");
  const password = `haproxy-${randomBytes(6).toString("hex")}`;
  // The default drain (10 s) against the shipped checks (inter 2 s × fall 3): the pair as shipped.
  const env = {
    SIGNPOST_DRAIN_S: "10",
    SIGNPOST_AGENT_RATE_LIMIT: "1000000",
    SIGNPOST_TRUST_PROXY: "1",
  };
  let database: TestDatabase;
  let legacy: RunningLegacy;
  let haproxy: RunningHaproxy;
  const instances: ServeInstance[] = [];
  let agentKey: string;

  const start = (port?: number) => startServeInstance({ databaseUrl: database.url, masterKey, env, port });

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    legacy = await startLegacy();
    const saved = process.env.SIGNPOST_MASTER_KEY;
    process.env.SIGNPOST_MASTER_KEY = masterKey;
    try {
      const seeded = await seedDemo(database.db, {
        legacyUrl: legacy.url,
        legacyApiKeys: legacy.apiKeys,
        password,
      });
      if (!seeded) throw new Error("not seeded");
      agentKey = seeded.agents.find((agent) => agent.user.startsWith("alice@"))?.key ?? "";
    } finally {
      if (saved === undefined) delete process.env.SIGNPOST_MASTER_KEY;
      else process.env.SIGNPOST_MASTER_KEY = saved;
    }
    // Together, as a deployment starts them (the migrations are applied already: the template).
    instances.push(...(await Promise.all([start(), start()])));
    haproxy = await startHaproxy(instances.map((i) => `127.0.0.1:${i.port}`));
    await waitForStates({ signpost1: "UP", signpost2: "UP" });
  }, 900_000);

  afterAll(async () => {
    await haproxy?.stop();
    for (const instance of instances) instance.kill();
    await Promise.all(instances.map((i) => i.exited));
    await legacy?.stop();
    await database?.drop();
  }, 120_000);

  async function waitForStates(wanted: Record<string, string>, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const states = await haproxy.serverStates();
      if (Object.entries(wanted).every(([name, state]) => states[name] === state)) return;
      if (Date.now() > deadline)
        throw new Error(`HAProxy never saw ${JSON.stringify(wanted)}: ${JSON.stringify(states)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  type Call = { name: string; run: () => Promise<string | null> };
  /** Each call resolves with null when it succeeded, else with what went wrong. */
  const calls: Call[] = [
    {
      name: "get_context",
      run: async () => {
        const res = await postMcp(haproxy.url, agentKey, [
          {
            method: "tools/call",
            params: { name: "get_context", arguments: { entity: "order", entity_id: "ord_paid" } },
          },
        ]);
        if (res.status !== 200) return `HTTP ${res.status}`;
        const [answer] = await mcpAnswers(res);
        const outcome = answer?.result?.structuredContent?.outcome;
        return outcome === "applied" ? null : `outcome ${outcome ?? JSON.stringify(answer).slice(0, 200)}`;
      },
    },
    {
      name: "tools/list",
      run: async () => {
        const res = await postMcp(haproxy.url, agentKey, [{ method: "tools/list" }]);
        if (res.status !== 200) return `HTTP ${res.status}`;
        const [answer] = await mcpAnswers(res);
        return (answer?.result?.tools?.length ?? 0) > 0 ? null : JSON.stringify(answer).slice(0, 200);
      },
    },
    {
      name: "search_capabilities",
      run: async () => {
        const res = await postMcp(haproxy.url, agentKey, [
          {
            method: "tools/call",
            params: { name: "search_capabilities", arguments: { query: "refund an order" } },
          },
        ]);
        if (res.status !== 200) return `HTTP ${res.status}`;
        const [answer] = await mcpAnswers(res);
        const outcome = answer?.result?.structuredContent?.outcome;
        return outcome === "applied" ? null : `outcome ${outcome ?? JSON.stringify(answer).slice(0, 200)}`;
      },
    },
    {
      name: "health/live",
      run: async () => {
        const res = await fetch(`${haproxy.url}/api/health/live`);
        await res.arrayBuffer();
        return res.status === 200 ? null : `HTTP ${res.status}`;
      },
    },
  ];

  it("a rolling restart of both instances under load: 0 failed requests; monitor streams end with a last event", async () => {
    // Support watching the live monitor through the balancer: it lands on one of the two.
    const signIn = await fetch(`${haproxy.url}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: haproxy.url },
      body: JSON.stringify({ email: "sam@acme.test", password }),
    });
    expect(signIn.status).toBe(200);
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const monitor = await fetch(`${haproxy.url}/api/console/stream`, { headers: { cookie } });
    expect(monitor.status).toBe(200);
    const monitorText = monitor.text().then(
      (text) => ({ ended: true, text }),
      (error: Error) => ({ ended: false, text: error.message }),
    );

    // Agents: four at once, each going through the calls in turn, until the restarts are over,
    // 50 ms apart: requests are always in flight when an instance leaves, without the four
    // saturating the machine (unpaced, they took both cores from the rest of the suite).
    let running = true;
    const tally = { requests: 0, during: 0 };
    const failures: string[] = [];
    let restarting = false;
    const agent = async (offset: number) => {
      for (let n = offset; running; n++) {
        const call = calls[n % calls.length] as Call;
        const problem = await call
          .run()
          .catch((error: Error) => `${error.message} ${String(error.cause ?? "")}`);
        tally.requests++;
        if (restarting) tally.during++;
        if (problem) failures.push(`${new Date().toISOString()} ${call.name}: ${problem}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const agents = [0, 1, 2, 3].map(agent);

    const steps: string[] = [];
    for (const [index, name] of ["signpost1", "signpost2"].entries()) {
      const leaving = instances[index] as ServeInstance;
      const before = tally.requests;
      restarting = true;
      steps.push(`${new Date().toISOString()} SIGTERM to ${name}`);
      leaving.child.kill("SIGTERM");
      // Draining: readiness says 503 "draining" (the instance still serves everything else).
      let drainingAnswer: unknown;
      await expect
        .poll(
          async () => {
            const res = await fetch(`${leaving.url}/api/health/ready`);
            drainingAnswer = await res.json();
            return res.status;
          },
          { timeout: 5_000 },
        )
        .toBe(503);
      expect(drainingAnswer).toMatchObject({ ready: false, status: "draining" });
      // HAProxy takes it out of rotation (the drain lasts longer than its checks need to see it),
      // then it stops listening and exits cleanly.
      await waitForStates({ [name]: "DOWN" });
      steps.push(`${new Date().toISOString()} HAProxy has ${name} DOWN`);
      expect(await leaving.exited).toBe(0);
      expect(leaving.output()).toContain('"event":"draining"');
      expect(leaving.output()).not.toMatch(/"cut":\d/);
      // Its successor takes its place (same port) and HAProxy puts it back in rotation.
      const successor = await start(leaving.port);
      instances[index] = successor;
      await waitForStates({ [name]: "UP" });
      restarting = false;
      steps.push(
        `${new Date().toISOString()} ${name} UP again: ${tally.requests - before} requests meanwhile`,
      );
    }
    // Both new instances take traffic before the load stops.
    await new Promise((r) => setTimeout(r, 1_000));
    running = false;
    await Promise.all(agents);

    console.log(
      `[haproxy rolling restart] ${tally.requests} requests, ${failures.length} failed; ${steps.join("; ")}`,
    );
    // What HAProxy saw (servers going DOWN and UP, and why), next to any failure.
    const seen = haproxy
      .output()
      .split("\n")
      .filter((line) => /Server signpost\/|no server available/.test(line) && !line.startsWith("["));
    expect(failures, seen.join("\n")).toEqual([]);
    // Each leaving instance was taken out by its draining answer (a 503 to the check), while it
    // still listened, not by refused connections after it stopped: the drain, not the retries,
    // kept the requests whole.
    console.log(`[haproxy rolling restart] HAProxy saw:\n${seen.join("\n")}`);
    const outs = seen.filter((line) => / is DOWN/.test(line));
    expect(outs.length, seen.join("\n")).toBe(2);
    for (const line of outs) expect(line).toContain("Layer7 wrong status, code: 503");
    // The restarts happened under load, not between requests.
    expect(tally.during).toBeGreaterThan(100);

    // The monitor stream's instance left: its stream ended with a last event, not an abort.
    const stream = await monitorText;
    expect(stream.ended, stream.text).toBe(true);
    expect(stream.text).toMatch(/event: closing\ndata: \{"reason":"shutdown","last_seq":\d+\}\n\n$/);
  }, 600_000);
});
