import { createSignpostMcp } from "@/mcp/signpost-mcp";
import { createDb, type DbQuery } from "@/server/db/client";

/**
 * The MCP calls whose database queries are counted (the bench prints them, the budget test
 * bounds them): an agent's common reads, and tools/list.
 */
export const COUNTED_OPERATIONS: Array<[string, string, Record<string, unknown> | undefined]> = [
  ["tools/list", "tools/list", undefined],
  ["get_context order", "get_context", { entity: "order", entity_id: "ord_paid" }],
  ["navigate shop://order/{id}", "navigate", { uri: "shop://order/ord_paid" }],
  ["search_capabilities", "search_capabilities", { query: "refund my order" }],
  ["search (browse)", "search", { query: "order" }],
];

/**
 * Runs each counted call through the whole MCP HTTP face in this process (key, budget, SDK,
 * gateway, audit) on a client of `databaseUrl` that counts every SQL statement Prisma sends,
 * and returns the statements per call in the steady state: each call runs twice first, so what
 * a cache keeps across calls is not counted, then the third is counted. Fire-and-forget writes
 * (the key's last use) are waited for and counted with their call.
 */
export async function countQueriesPerOperation(
  databaseUrl: string,
  agentKey: string,
  options: { onQuery?: (operation: string, query: DbQuery) => void } = {},
): Promise<Record<string, number>> {
  let current: string | null = null;
  let count = 0;
  let lastQueryAt = performance.now();
  const db = createDb(databaseUrl, {
    onQuery: (query) => {
      lastQueryAt = performance.now();
      if (current === null) return;
      count++;
      options.onQuery?.(current, query);
    },
  });
  const mcp = createSignpostMcp({ db, publicUrl: "http://localhost:3000", callsPerMinute: 0 });
  // Until no statement has finished for a while: a late one (PostgreSQL's audit doorbell, rung
  // after the answer) belongs to the call before, not to the next one counted.
  const settle = async () => {
    const started = performance.now();
    do await new Promise((resolve) => setTimeout(resolve, 30));
    while (performance.now() - lastQueryAt < 150 && performance.now() - started < 3_000);
  };
  const post = async (method: string, params: unknown) => {
    const response = await mcp.handle(
      new Request("http://localhost:3000/mcp", {
        method: "POST",
        headers: {
          authorization: `Bearer ${agentKey}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
          host: "localhost:3000",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      }),
    );
    const text = await response.text();
    // A read that failed (the system beneath unreachable, refused by the egress policy…) is an
    // outcome, not an error: counted as a success it would count a failure's statements instead.
    const outcome = /"outcome":"(\w+)"/.exec(text)?.[1];
    if (response.status !== 200 || text.includes('"isError":true') || (outcome && outcome !== "applied"))
      throw new Error(`${method} answered ${response.status}: ${text.slice(0, 300)}`);
  };
  const result: Record<string, number> = {};
  try {
    for (const [label, name, args] of COUNTED_OPERATIONS) {
      const call = () =>
        name === "tools/list" ? post("tools/list", {}) : post("tools/call", { name, arguments: args });
      await call();
      await call();
      await settle();
      current = label;
      count = 0;
      await call();
      await settle();
      result[label] = count;
      current = null;
    }
  } finally {
    await mcp.close();
    await db.$disconnect();
  }
  return result;
}
