import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST } from "@/app/mcp/route";
import { createSignpostMcp, type SignpostMcp } from "@/mcp/signpost-mcp";
import { createWorld, type World } from "../gateway/gateway-world";

/** The process-wide instance app/mcp/route.ts serves; the test puts its own world there. */
const holder = globalThis as typeof globalThis & { __signpostMcp?: SignpostMcp };

const BUDGET = 10;

/**
 * The per-agent-key call budget counts JSON-RPC messages, not HTTP requests: a batch costs its
 * length, is charged whole before anything runs, and is refused whole when it does not fit.
 * Through the real Next route handler (app/mcp/route.ts) with raw JSON-RPC batches, as an
 * attacker would send them.
 */
describe("/mcp batches and the call budget (app/mcp/route.ts)", () => {
  let w: World;
  let previous: SignpostMcp | undefined;
  beforeAll(async () => {
    w = await createWorld("sqlite");
    previous = holder.__signpostMcp;
    holder.__signpostMcp = createSignpostMcp({
      db: w.db,
      publicUrl: "http://localhost:3000",
      callsPerMinute: BUDGET,
    });
  });
  afterAll(async () => {
    holder.__signpostMcp = previous;
    await w?.close();
  });
  beforeEach(async () => w.legacy.reset());

  let nextId = 1;
  const startCall = () => ({
    jsonrpc: "2.0",
    id: nextId++,
    method: "tools/call",
    params: { name: "start_action", arguments: { capability: "after_sales", entity_id: "ord_paid" } },
  });
  const batchOf = (n: number) => Array.from({ length: n }, startCall);

  const post = (key: string, body: string) =>
    POST(
      new Request("http://localhost:3000/mcp", {
        method: "POST",
        headers: {
          // Next hands the route the Host header the client sent.
          host: "localhost:3000",
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
        body,
      }),
    );

  const startedBy = async (agentId: string | undefined) => ({
    audited: await w.db.auditEvent.count({ where: { operation: "action.started", agentId } }),
    actions: await w.db.action.count({ where: { agentId } }),
  });

  /** The JSON-RPC responses of a 200 answer (JSON or one SSE event per message). */
  async function answers(response: Response): Promise<Array<{ id: number; result?: unknown }>> {
    const text = await response.text();
    if (response.headers.get("content-type")?.includes("application/json")) {
      const body = JSON.parse(text) as unknown;
      return (Array.isArray(body) ? body : [body]) as Array<{ id: number }>;
    }
    return text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as { id: number });
  }

  it("a batch larger than what is left of the budget is refused whole: 429, Retry-After, rate_limited, nothing ran", async () => {
    const alice = w.agent.alice.agentId ?? undefined;
    const five = await post(w.keys.alice, JSON.stringify(batchOf(5)));
    expect(five.status).toBe(200);
    // The answers stream (SSE): read them all, so every call has run before counting.
    expect(await answers(five)).toHaveLength(5);
    expect(await startedBy(alice)).toEqual({ audited: 5, actions: 5 });
    const refused = await post(w.keys.alice, JSON.stringify(batchOf(6)));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = (await refused.json()) as { error: { message: string; data: Record<string, unknown> } };
    expect(body.error.data).toMatchObject({
      outcome: "temporarily_unavailable",
      reason: "rate_limited",
      retryable: true,
      next_actions: [],
    });
    expect(body.error.message).toMatch(/carries 6.*retry in \d+ s/);
    // Not one of the six calls ran: no audit row of a start, no action stored.
    expect(await startedBy(alice)).toEqual({ audited: 5, actions: 5 });
    // The refusal itself is on record, counting every refused call.
    const rows = await w.db.auditEvent.findMany({ where: { operation: "mcp.rate_limited", agentId: alice } });
    expect(rows.map((r) => r.arguments)).toEqual([{ refused: 6, calls_per_minute: BUDGET }]);
  });

  it("a batch larger than the whole budget is refused as never fitting: 429, not retryable as is", async () => {
    const gina = w.agent.gina.agentId ?? undefined;
    const refused = await post(w.keys.gina, JSON.stringify(batchOf(BUDGET + 1)));
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { message: string; data: Record<string, unknown> } };
    expect(body.error.data).toMatchObject({ reason: "rate_limited", retryable: false });
    expect(body.error.message).toMatch(/send fewer at a time/);
    expect(await startedBy(gina)).toEqual({ audited: 0, actions: 0 });
  });

  it("each message of a batch costs one call; a refused batch costs nothing; a batch that fits runs whole", async () => {
    const sam = w.agent.sam.agentId ?? undefined;
    const six = await post(w.keys.sam, JSON.stringify(batchOf(6)));
    expect(six.status).toBe(200);
    expect(await answers(six)).toHaveLength(6);
    expect(await startedBy(sam)).toEqual({ audited: 6, actions: 6 });

    // Four calls are left: a batch of five is refused whole, not run in part.
    const five = await post(w.keys.sam, JSON.stringify(batchOf(5)));
    expect(five.status).toBe(429);
    expect(await startedBy(sam)).toEqual({ audited: 6, actions: 6 });

    // The refusal took nothing: exactly four still fit (the bucket refills by only ten a
    // minute, so no fifth call can have refilled meanwhile on any machine that is not stalled).
    const four = await post(w.keys.sam, JSON.stringify(batchOf(4)));
    expect(four.status).toBe(200);
    expect(await answers(four)).toHaveLength(4);
    expect(await startedBy(sam)).toEqual({ audited: 10, actions: 10 });
    const single = await post(w.keys.sam, JSON.stringify(startCall()));
    expect(single.status).toBe(429);
    expect(await startedBy(sam)).toEqual({ audited: 10, actions: 10 });
  });

  it("a batch of more than 50 messages is refused with 413 and a JSON-RPC error, before the budget or any tool", async () => {
    const adam = w.agent.adam.agentId ?? undefined;
    const refused = await post(w.keys.adam, JSON.stringify(batchOf(51)));
    expect(refused.status).toBe(413);
    const body = (await refused.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32600);
    expect(body.error.message).toMatch(/at most 50/);
    expect(await startedBy(adam)).toEqual({ audited: 0, actions: 0 });
    // Nothing was charged: the whole budget is still there.
    const ten = await post(w.keys.adam, JSON.stringify(batchOf(BUDGET)));
    expect(ten.status).toBe(200);
    expect(await answers(ten)).toHaveLength(BUDGET);
  });

  it("a body over 4 MiB is refused with 413 before any tool runs", async () => {
    const gina = w.agent.gina.agentId ?? undefined;
    const call = startCall();
    const big = JSON.stringify({ ...call, params: { ...call.params, padding: "x".repeat(4 * 1024 * 1024) } });
    const refused = await post(w.keys.gina, big);
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/Too Large/i);
    expect(await startedBy(gina)).toEqual({ audited: 0, actions: 0 });
  });
});
