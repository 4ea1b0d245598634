import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld } from "./mcp-world";

// Servers on /mcp are kept and reused between requests (mcp/mcp-server-pool.ts): building one
// per tool call cost ~4% of serve's CPU. A kept server must never answer one caller as another:
// every handler reads its caller from its own request. Agents of two tenants call at once, round
// after round, on the 2025 JSON leg and on the 2026-07-28 leg (where servers are given back),
// so the few servers built answer every caller in turn; each answer and each audit row must be
// its own caller's, and what one request declared (its client capabilities) is not another's.

type Answer = {
  result?: {
    structuredContent?: Record<string, unknown>;
    content?: Array<{ text?: string }>;
    resultType?: string;
  };
};

const MODERN = "2026-07-28";
type Era = "2025" | "2026";

describe("/mcp's kept servers answer each request as its own caller", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  let id = 1;
  async function call(
    era: Era,
    key: string,
    name: string,
    args: Record<string, unknown>,
    /** The client capabilities a 2026-07-28 request declares in its envelope. */
    capabilities: Record<string, unknown> = {},
  ): Promise<Answer> {
    const modern = era === "2026";
    const response = await fetch(w.endpoint, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": modern ? MODERN : "2025-11-25",
        ...(modern ? { "mcp-method": "tools/call", "mcp-name": name } : {}),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: id++,
        method: "tools/call",
        params: {
          name,
          arguments: args,
          ...(modern
            ? {
                _meta: {
                  "io.modelcontextprotocol/protocolVersion": MODERN,
                  "io.modelcontextprotocol/clientInfo": { name: "shared-test", version: "1" },
                  "io.modelcontextprotocol/clientCapabilities": capabilities,
                },
              }
            : {}),
        },
      }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Answer;
  }

  it.each<Era>(["2025", "2026"])(
    "%s: agents of two tenants interleaving calls: each answer and audit row is the caller's, on servers all of them used",
    async (era) => {
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
              call(era, caller.key, "navigate", { uri: "signpost://start" }).then((answer) =>
                expect(answer.result?.content?.[0]?.text).toContain(`Signed in as ${caller.who}.`),
              ),
              // Acme's order: found in Acme (Alice's own; Adam is its admin), not_found for Globex's agent.
              call(era, caller.key, "get_context", { entity: "order", entity_id: "ord_paid" }).then(
                (answer) =>
                  expect(answer.result?.structuredContent?.outcome).toBe(
                    caller.seesOrder ? "applied" : "not_found",
                  ),
              ),
              // A marker in the audit row's target says which caller sent it.
              call(era, caller.key, "navigate", { uri: `shop://order/${era}_r${round}c${i}` }),
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
        new RegExp(`${era}_r\\d+c\\d+`).test(row.target ?? ""),
      );
      // Every marked call left its rows (a page read writes the context read and the navigation).
      expect(new Set(rows.map((row) => /\d{4}_r\d+c\d+/.exec(row.target ?? "")?.[0])).size).toBe(
        rounds * callers.length,
      );
      for (const row of rows) {
        const i = Number(/\d{4}_r\d+c(\d+)/.exec(row.target ?? "")?.[1]);
        const identity = identities[i];
        expect(row.tenantId, row.target ?? "").toBe(callers[i]?.tenant);
        expect(row.userId, row.target ?? "").toBe(identity?.context.userId);
        expect(row.agentId, row.target ?? "").toBe(identity?.context.agentId);
      }
    },
  );

  it("2026: one request's declared client capabilities are not another's on the same kept server", async () => {
    // A host that can elicit gets a form for the missing fields (input_required); a host that
    // declares nothing, answered next on the same kept server, gets the plain answer naming them.
    const start = { capability: "after_sales", entity_id: "ord_paid" };
    for (let round = 0; round < 4; round++) {
      const eliciting = await call("2026", w.keys.alice, "start_action", start, {
        elicitation: { form: {} },
      });
      expect(eliciting.result?.resultType).toBe("input_required");
      const plain = await call("2026", w.keys.adam, "start_action", start);
      expect(plain.result?.resultType).not.toBe("input_required");
      expect(plain.result?.structuredContent?.outcome).toBe("input_required");
    }
  });
});
