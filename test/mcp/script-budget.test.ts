import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as mcpRoute from "@/app/mcp/route";
import { createSignpostMcp } from "@/mcp/signpost-mcp";
import { createWorld, type World } from "../gateway/gateway-world";
import { serveRoute, serveThisMcp } from "../helpers/serve-route";
import { sc } from "./mcp-world";

/**
 * A script is no way around the call budget or the tenant's limits: each of its calls spends one
 * call of the agent key's budget, as the same call made directly would, and the tenant's stored
 * script limits replace the defaults.
 */
describe("run_script spends the key's budget and keeps the tenant's limits", () => {
  let w: World;
  let server: { url: string; close(): Promise<void> };
  let restore = () => {};
  const clients: Client[] = [];

  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: "signpost-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp?faces=script`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    w = await createWorld("sqlite");
    const mcp = createSignpostMcp({ db: w.db, publicUrl: "http://localhost:3000", callsPerMinute: 12 });
    restore = serveThisMcp(mcp);
    server = await serveRoute(mcpRoute);
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await server?.close();
    restore();
    await w?.close();
  });

  it("calls past the budget answer rate_limited inside the script (no exception), and the refusal is audited", async () => {
    const alice = await connect(w.keys.alice);
    const result = await alice.callTool({
      name: "run_script",
      arguments: {
        code: "const out = []; for (let i = 0; i < 15; i++) out.push((await navigate('shop://orders')).outcome); return out;",
      },
    });
    const out = sc(result);
    expect(out.outcome).toBe("applied");
    const outcomes = out.result as string[];
    expect(outcomes).toHaveLength(15);
    const firstRefused = outcomes.indexOf("temporarily_unavailable");
    // The handshake and the run_script call itself spent some of the twelve; the script the rest.
    expect(firstRefused).toBeGreaterThan(0);
    expect(firstRefused).toBeLessThan(12);
    expect(outcomes.slice(0, firstRefused).every((o) => o === "applied")).toBe(true);
    expect(outcomes.slice(firstRefused).every((o) => o === "temporarily_unavailable")).toBe(true);
    const refusal = await w.db.auditEvent.findFirst({
      where: { tenantId: "acme", operation: "mcp.rate_limited" },
    });
    expect(refusal).not.toBeNull();
    // Refused inside the run: audited under face script with the run's own request id.
    const ran = await w.db.auditEvent.findFirst({ where: { tenantId: "acme", operation: "script.ran" } });
    expect(refusal).toMatchObject({ face: "script", requestId: ran?.requestId });
    // Refused calls never reached the gateway: only the applied ones have browse rows.
    const browsed = await w.db.auditEvent.count({
      where: { tenantId: "acme", face: "script", operation: "browse.navigated" },
    });
    expect(browsed).toBe(firstRefused);
  });

  it("a tenant's stored limits replace the defaults; a stored value that does not parse changes nothing", async () => {
    await w.db.tenant.update({
      where: { id: "globex" },
      data: { scriptLimits: { maxCalls: 2, cpuMs: 100 } },
    });
    const gina = await connect(w.keys.gina);
    const calls = sc(
      await gina.callTool({
        name: "run_script",
        arguments: { code: "for (let i = 0; i < 5; i++) await navigate('shop://orders'); return 'done'" },
      }),
    );
    expect(calls).toMatchObject({ outcome: "rejected", reason: "too_many_calls" });
    expect(calls.calls).toHaveLength(2);
    const started = performance.now();
    const spin = sc(await gina.callTool({ name: "run_script", arguments: { code: "while (true) {}" } }));
    expect(spin).toMatchObject({ outcome: "rejected", reason: "script_timeout" });
    expect(performance.now() - started).toBeLessThan(1_500);

    // A limit past what a tenant may set makes the whole stored value void: the defaults hold.
    await w.db.tenant.update({ where: { id: "globex" }, data: { scriptLimits: { maxCalls: 1_000_000 } } });
    const again = sc(
      await gina.callTool({
        name: "run_script",
        arguments: { code: "for (let i = 0; i < 5; i++) await navigate('shop://orders'); return 'done'" },
      }),
    );
    expect(again).toMatchObject({ outcome: "applied", result: "done" });
  });
});
