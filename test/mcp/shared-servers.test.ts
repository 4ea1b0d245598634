import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld } from "./mcp-world";

// Servers on /mcp are kept and reused between requests (mcp/mcp-server-pool.ts): building one
// per tool call cost ~4% of serve's CPU. A kept server must never answer one caller as another:
// every handler reads its caller from its own request. Agents of two tenants call at once, round
// after round, on the 2025 JSON leg (where servers are given back), so the few servers built
// answer every caller in turn; each answer and each audit row must be its own caller's.

type Answer = {
  result?: { structuredContent?: Record<string, unknown>; content?: Array<{ text?: string }> };
};

describe("/mcp's kept servers answer each request as its own caller", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  let id = 1;
  async function call(key: string, name: string, args: Record<string, unknown>): Promise<Answer> {
    const response = await fetch(w.endpoint, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: id++,
        method: "tools/call",
        params: { name, arguments: args },
      }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Answer;
  }

  it("agents of two tenants interleaving calls: each answer and audit row is the caller's, on servers all of them used", async () => {
    const callers = [
      { key: w.keys.alice, who: "Alice (alice@acme.test) at Acme", tenant: "acme", seesOrder: true },
      { key: w.keys.gina, who: "Gina (gina@globex.test) at Globex", tenant: "globex", seesOrder: false },
      { key: w.keys.adam, who: "Adam (adam@acme.test) at Acme", tenant: "acme", seesOrder: true },
    ];
    const identities = await Promise.all(callers.map((c) => w.mcp.authenticate(c.key)));
    const before = w.mcp.serversBuilt();
    const since = new Date();
    const rounds = 12;
    let calls = 0;
    for (let round = 0; round < rounds; round++) {
      await Promise.all(
        callers.flatMap((caller, i) => {
          calls += 3;
          return [
            call(caller.key, "navigate", { uri: "signpost://start" }).then((answer) =>
              expect(answer.result?.content?.[0]?.text).toContain(`Signed in as ${caller.who}.`),
            ),
            // Acme's order: found in Acme (Alice's own; Adam is its admin), not_found for Globex's agent.
            call(caller.key, "get_context", { entity: "order", entity_id: "ord_paid" }).then((answer) =>
              expect(answer.result?.structuredContent?.outcome).toBe(
                caller.seesOrder ? "applied" : "not_found",
              ),
            ),
            // A marker in the audit row's target says which caller sent it.
            call(caller.key, "navigate", { uri: `shop://order/ord_r${round}c${i}` }),
          ];
        }),
      );
    }
    const built = w.mcp.serversBuilt() - before;
    // Servers were kept: far fewer built than calls made (at most as many as ran at once).
    expect(built).toBeGreaterThan(0);
    expect(built).toBeLessThanOrEqual(9);
    expect(calls).toBe(rounds * 9);

    const rows = (await w.db.auditEvent.findMany({ where: { createdAt: { gte: since } } })).filter((row) =>
      /ord_r\d+c\d+/.test(row.target ?? ""),
    );
    // Every marked call left its rows (a page read writes the context read and the navigation).
    expect(new Set(rows.map((row) => /ord_r\d+c\d+/.exec(row.target ?? "")?.[0])).size).toBe(
      rounds * callers.length,
    );
    for (const row of rows) {
      const i = Number(/ord_r\d+c(\d+)/.exec(row.target ?? "")?.[1]);
      const identity = identities[i];
      expect(row.tenantId, row.target ?? "").toBe(callers[i]?.tenant);
      expect(row.userId, row.target ?? "").toBe(identity?.context.userId);
      expect(row.agentId, row.target ?? "").toBe(identity?.context.agentId);
    }
  });
});
