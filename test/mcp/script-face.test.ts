import { execFile } from "node:child_process";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as healthRoute from "@/app/api/health/route";
import type { PublishedAuditEvent } from "@/server/gateway/event-stream";
import { listSecrets, readSecret } from "@/server/gateway/vault";
import { serveRoute } from "../helpers/serve-route";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * The script face through a real MCP client over HTTP: agent JavaScript in a QuickJS WebAssembly
 * sandbox whose functions are the other faces' gateway operations, for the same agent, with the
 * same permissions, approvals, audit rows and monitor events, and nothing else reachable.
 */

type Outcome = ReturnType<typeof sc>;

async function runScript(client: Client, code: string): Promise<{ out: Outcome; text: string }> {
  const result = await client.callTool({ name: "run_script", arguments: { code } });
  return { out: sc(result), text: text(result) };
}

describe("run_script", () => {
  let w: McpWorld;
  let alice: Client;
  let health: { url: string; close(): Promise<void> };
  const saved = process.env.SIGNPOST_LEGACY_URL;

  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    alice = await w.connect(w.keys.alice, { faces: "script" });
    // /api/health of this process, on this world's database and legacy service.
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

  it("is the only tool of ?faces=script, and its description teaches the functions", async () => {
    const { tools } = await alice.listTools();
    expect(tools.map((t) => t.name)).toEqual(["run_script"]);
    for (const fn of [
      "search(",
      "navigate(",
      "submit(",
      "startAction(",
      "confirmAction(",
      "verifyAction",
      "console.log",
      // What each returns: a script that reads a field that is not there returns {}.
      "{uri,title,outcome,links,markdown}",
      "next_actions}",
    ])
      expect(tools[0]?.description).toContain(fn);
  });

  it("totals every delivered order across pages in one call (right number from the legacy system)", async () => {
    const legacy = await fetch(
      `${w.legacy.url}/v1/orders?customer_id=cus_alice&status=delivered&per_page=50`,
      {
        headers: { Authorization: `Bearer ${w.legacy.apiKeys.acme}` },
      },
    );
    const orders = ((await legacy.json()) as { data: Array<{ total: number }> }).data;
    expect(orders.length).toBeGreaterThan(1);
    const expected = orders.reduce((sum, o) => sum + o.total, 0);

    const { out } = await runScript(
      alice,
      `
      // Follow each page's "next page" link (the one to page n + 1) until there is none.
      let uri = "shop://orders?status=delivered&per_page=1", n = 1;
      const ids = [];
      while (uri) {
        const page = await navigate(uri);
        for (const link of page.links) {
          const id = link.startsWith("shop://order/") ? link.slice("shop://order/".length) : "";
          if (id && !id.includes("/")) ids.push(id);
        }
        n += 1;
        uri = page.links.find((l) => l.startsWith("shop://orders?") && l.split("?")[1].split("&").includes("page=" + n));
      }
      let total = 0;
      for (const id of ids) {
        const order = await getContext({ entity: "order", entity_id: id });
        total += order.view.totals.total;
      }
      console.log("orders", ids.length);
      return { total, orders: ids.length };
      `,
    );
    expect(out, String(out.message)).toMatchObject({
      outcome: "applied",
      result: { total: expected, orders: orders.length },
    });
    expect(out.logs).toEqual([`orders ${orders.length}`]);
    // One page per order, then one context read per order.
    expect((out.calls as unknown[]).length).toBe(orders.length * 2);
  });

  it("a checkout stops at the confirmation node and says what awaits approval; the script cannot approve", async () => {
    const { out, text: shown } = await runScript(
      alice,
      `
      const started = await startAction({ capability: "checkout", patch: {
        items: [{ product_id: "prod_mug", quantity: 2 }], address_id: "Office", shipping_method: "standard", payment_type: "balance" } });
      const confirmed = await confirmAction({ action_id: started.action_id, idempotency_key: "script-" + started.action_id });
      return { node: started.node, confirm: confirmed.outcome, reason: confirmed.reason };
      `,
    );
    expect(out.outcome).toBe("applied");
    expect(out.result).toEqual({ node: "CONFIRM_ORDER", confirm: "rejected", reason: "approval_pending" });
    const awaiting = out.awaiting_approval as Array<{ action_id: string; approval_url: string }>;
    expect(awaiting).toHaveLength(1);
    expect(awaiting[0]?.approval_url).toBe(`http://localhost:3000/confirm/${awaiting[0]?.action_id}`);
    expect(out.message).toContain("await a person's approval");
    expect(shown).toContain(awaiting[0]?.action_id);
    expect(out.next_actions.map((n) => n.tool)).toContain("confirm_action");
    // Nothing was charged: the action waits at its confirmation.
    const action = await w.db.action.findUnique({ where: { id: String(awaiting[0]?.action_id) } });
    expect(action?.node).toBe("CONFIRM_ORDER");
  });

  it("its calls are audited under face script with the run's row, and reach the live monitor", async () => {
    const events: PublishedAuditEvent[] = [];
    const unsubscribe = w.mcp.gateway.subscribe((e) => events.push(e));
    try {
      const { out } = await runScript(
        alice,
        `const a = await navigate("shop://orders"); const b = await searchCapabilities("refund my order"); return [a.outcome, b.outcome];`,
      );
      expect(out).toMatchObject({ outcome: "applied", result: ["applied", "applied"] });
    } finally {
      unsubscribe();
    }
    const ran = events.find((e) => e.operation === "script.ran");
    expect(ran).toMatchObject({ face: "script", outcome: "applied", target: "script" });
    const calls = events.filter((e) => e.requestId === ran?.requestId && e.operation !== "script.ran");
    expect(calls.map((e) => [e.face, e.operation])).toEqual([
      ["script", "browse.navigated"],
      ["script", "capability.searched"],
    ]);
    // The run's row comes last and names its calls; all share the HTTP request's id.
    expect(ran?.seq).toBeGreaterThan(Math.max(...calls.map((c) => c.seq)));
    expect((ran?.arguments as { calls?: string[] } | undefined)?.calls).toHaveLength(2);
    const stored = await w.db.auditEvent.findMany({ where: { requestId: ran?.requestId ?? "" } });
    expect(stored.every((r) => r.face === "script" && r.agentId === w.agent.alice.agentId)).toBe(true);
  });

  it("errors an agent can fix: a syntax error's line and column, a throw's message and line, a failed call's outcome", async () => {
    const syntax = await runScript(alice, "const a = 1;\nconst b = ;\nreturn a;");
    expect(syntax.out).toMatchObject({
      outcome: "rejected",
      reason: "script_syntax_error",
      error: { line: 2, column: 11 },
    });
    const thrown = await runScript(alice, "const x = 1;\nif (x) throw new Error('no orders here');");
    expect(thrown.out).toMatchObject({
      outcome: "rejected",
      reason: "script_error",
      error: { message: "Error: no orders here", line: 2 },
    });
    const failed = await runScript(
      alice,
      `const page = await navigate("shop://order/ord_nope"); const act = await advanceAction({ action_id: "act_nope", version: 1, patch: {} }); return [page.outcome, act.outcome];`,
    );
    expect(failed.out).toMatchObject({ outcome: "applied", result: ["not_found", "not_found"] });
  });

  it("one script at a time per agent key: a second one sent meanwhile is refused, retryable", async () => {
    const [first, second] = await Promise.all([
      runScript(alice, "await sleep(300); return 'first'"),
      runScript(alice, "return 'second'"),
    ]);
    const outcomes = [first.out, second.out].map((o) => [o.outcome, o.reason ?? o.result]);
    expect(outcomes).toContainEqual(["applied", "first"]);
    expect(outcomes).toContainEqual(["rejected", "script_busy"]);
    expect([first.out, second.out].find((o) => o.reason === "script_busy")?.retryable).toBe(true);
    // Another agent's script is not held up by Alice's.
    const adam = await w.connect(w.keys.adam, { faces: "script" });
    const [long, other] = await Promise.all([
      runScript(alice, "await sleep(300); return 'alice'"),
      runScript(adam, "return 'adam'"),
    ]);
    expect([long.out.result, other.out.result]).toEqual(["alice", "adam"]);
  });

  it("an admin turns the face off for a role with a script deny rule; other faces still work", async () => {
    const rule = await w.db.permissionRule.create({
      data: {
        tenantId: "acme",
        subjectType: "role",
        subjectId: "member",
        verb: "script",
        pattern: "*",
        decision: "deny",
        position: 0,
        note: "no scripts for members",
      },
    });
    try {
      const { out } = await runScript(alice, "return await navigate('shop://orders')");
      expect(out).toMatchObject({ outcome: "rejected", reason: "permission_denied" });
      const row = await w.db.auditEvent.findFirst({
        where: { tenantId: "acme", operation: "script.ran" },
        orderBy: { seq: "desc" },
      });
      expect(row).toMatchObject({ outcome: "rejected", decision: `deny:${rule.id}` });
      // Adam (admin) is not a member: his scripts run.
      const adam = await w.connect(w.keys.adam, { faces: "script" });
      expect((await runScript(adam, "return 1")).out).toMatchObject({ outcome: "applied", result: 1 });
      // Alice's browse face is untouched by the script rule.
      const browse = await w.connect(w.keys.alice, { faces: "browse" });
      const page = sc(await browse.callTool({ name: "navigate", arguments: { uri: "shop://orders" } }));
      expect(page.outcome).toBe("applied");
    } finally {
      await w.db.permissionRule.delete({ where: { id: rule.id } });
    }
  });

  // Each attempt may outlast the script's own 30 s wall limit (90 s each), so a slow run ends in
  // the typed refusal it is checked for rather than in the test's timeout.
  describe("containment: each attempt ends in a typed outcome, no secret leaves, the server stays healthy", {
    timeout: 90_000,
  }, () => {
    const attempts: Array<[string, string, Record<string, unknown>]> = [
      ["process.env", "return process.env", { outcome: "rejected", reason: "script_error" }],
      [
        "require('fs')",
        "return require('fs').readFileSync('/etc/passwd', 'utf8')",
        { reason: "script_error" },
      ],
      [
        "import('node:fs')",
        "const fs = await import('node:fs'); return fs.readdirSync('/')",
        { reason: "script_error" },
      ],
      [
        "fetch",
        "return await (await fetch('http://127.0.0.1:4010/orders')).json()",
        { reason: "script_error" },
      ],
      [
        "the Function constructor",
        "return globalThis.constructor.constructor('return typeof process + typeof require')()",
        { outcome: "applied", result: "undefinedundefined" },
      ],
      ["while(true){}", "while (true) {}", { reason: "script_timeout" }],
      [
        "a caught infinite loop",
        "try { while (true) {} } catch (e) { return 'escaped' }",
        { reason: "script_timeout" },
      ],
      ["a 1 GB string", "return 'x'.repeat(1024 * 1024 * 1024 - 1).length", { reason: "script_memory" }],
      [
        "1,000 MiB of typed arrays",
        "const a = []; for (;;) a.push(new Uint8Array(1 << 20));",
        { reason: "script_memory" },
      ],
      ["deep recursion", "function f(n) { return f(n + 1) + 1 } return f(0)", { reason: "script_memory" }],
      // The start page: a real page that asks no business system, so the 200 calls the limit
      // lets through are cheap and the run meets the call limit well before its 30 s wall clock
      // on a busy machine (200 order lists from the legacy service in a row did not always).
      [
        "10,000 navigate calls",
        "for (let i = 0; i < 10000; i++) await navigate('signpost://start'); return 'all done'",
        { reason: "too_many_calls" },
      ],
      // Five times the limit at once: every call past the 200th is still made (and refused) in the
      // script's own time, and 10,000 of them could use up its 2 s of CPU first on a busy machine.
      [
        "1,000 navigate calls at once",
        "await Promise.all(Array.from({ length: 1000 }, () => navigate('signpost://start'))); return 'all done'",
        { reason: "too_many_calls" },
      ],
      [
        "a promise that never settles",
        "await new Promise(() => {}); return 'never'",
        { reason: "script_timeout" },
      ],
      ["a huge result", "return 'y'.repeat(1024 * 1024)", { reason: "script_output_too_large" }],
      [
        "101 sleeps",
        "let i = 0;\nwhile (i++ < 101) await sleep(0);\nreturn 'slept'",
        { reason: "script_error", error: { message: "Error: sleep: at most 100 per run", line: 2 } },
      ],
    ];

    it.each(attempts)("%s", async (_name, code, expected) => {
      // Asked by another process 300 ms into the run (this one's timers wait while a script
      // spins), timed by that process: what any other client of this instance would see.
      const healthDuring = new Promise<{ status: number; ms: number }>((resolve, reject) => {
        execFile(
          "sh",
          [
            "-c",
            `sleep 0.3; curl -s -o /dev/null --max-time 20 -w '%{http_code} %{time_total}' ${health.url}/api/health`,
          ],
          (error, stdout) => {
            if (error) return reject(error);
            const [status, seconds] = stdout.trim().split(" ");
            resolve({ status: Number(status), ms: Number(seconds) * 1000 });
          },
        );
      });
      const started = performance.now();
      const { out, text: shown } = await runScript(alice, code);
      const wall = performance.now() - started;
      expect(out).toMatchObject({ outcome: "rejected", ...expected });
      if (out.outcome === "rejected") expect(out.next_actions).toEqual([]);
      // The calls made before a limit stopped the run are listed (at once: those that had started).
      if (code.startsWith("for")) expect((out.calls as unknown[]).length).toBe(200);
      if (expected.reason === "too_many_calls")
        expect((out.calls as unknown[]).length).toBeLessThanOrEqual(200);
      // A limit is enforced within its own bound (CPU 2 s, wall 30 s): nothing ran on.
      expect(wall).toBeLessThan(25_000);

      const during = await healthDuring;
      expect(during.status).toBe(200);
      // The script spins on its sandbox thread, not on the server's event loop: health is not held up
      // (it waited 1.7 s while the sandbox ran on the server's own thread).
      expect(during.ms).toBeLessThan(1_000);
      if (process.env.SCRIPT_HEALTH_LOG)
        console.log(`${_name}: /api/health during the run ${during.ms.toFixed(0)} ms`);
      const after = await fetch(`${health.url}/api/health`);
      expect(after.status).toBe(200);

      // No secret bytes: the legacy API key and every vault secret are absent from the answer.
      const answer = JSON.stringify(out) + shown;
      const secrets = [w.legacy.apiKeys.acme, w.legacy.apiKeys.globex, process.env.SIGNPOST_MASTER_KEY ?? ""];
      for (const s of await listSecrets(w.db, "acme"))
        secrets.push(
          (await readSecret(w.db, { tenantId: "acme", connector: s.connector, name: s.name })) ?? "",
        );
      for (const secret of secrets.filter((s) => s.length >= 8)) expect(answer).not.toContain(secret);
      expect(answer).not.toMatch(/root:x:0:0/);
    });
  });
});
