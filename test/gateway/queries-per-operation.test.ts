import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbQuery } from "@/server/db/client";
import type { DbProvider } from "@/server/db/database-url";
import { allowEgressTo } from "../helpers/allow-egress";
import { COUNTED_OPERATIONS, countQueriesPerOperation } from "../helpers/count-queries";
import { describeEachProvider } from "../helpers/database";
import { createWorld, type World } from "./gateway-world";

/**
 * Issue 22: the SQL statements one MCP call sends, through the whole HTTP face (key, budget,
 * server, gateway, audit), in the steady state (the tenant's setup already cached). A change that
 * adds a query to a common call fails here: raise a budget only with a reason in the commit.
 * A known agent key costs 1 statement, the tenant row (name, script limits and the config stamp
 * that says whether the cached key and setup still hold: agent-key-cache.ts; with the agent's
 * applied-actions stamp, which says whether its cached "placed by you" still holds), which the MCP
 * request needed anyway. An audit row is 1 on SQLite (one statement numbers and inserts it, in
 * autocommit when it is the only row waiting; a trigger moves the counter: prepared-statements.ts;
 * it was 3: the tenant's next number, the row, COMMIT) and 1 on PostgreSQL (one statement numbers
 * and inserts) plus its NOTIFY. Before issue 22's prepared statements: 1, 4, 7, 4, 7 on SQLite
 * and 1, 3, 5, 3, 5 on PostgreSQL (navigate wrote a second row for the page's own read, and
 * PostgreSQL sent the NOTIFY on its own).
 */
const BUDGET: Record<DbProvider, Record<string, number>> = {
  sqlite: {
    "tools/list": 1, // the key's tenant row only: the list itself is cached per caller
    "get_context order": 2, // tenant 1 + audit 1 (4 before the one-statement audit row)
    // tenant 1 + audit 1: the page's read of the view is the page's row. Whether this agent placed
    // the order (issue 23: "placed by you") is cached under the agent's applied-actions stamp,
    // read with the tenant row (created-by-agent.ts): 5 before both.
    "navigate shop://order/{id}": 2,
    search_capabilities: 2, // tenant 1 + audit 1 (4 before)
    // tenant 1 + two audit rows: the search, and the listing it opens (a page of its own, with its
    // own permission check); every result authorized from the cached rules; the orders this agent
    // placed, marked on the listing, from the same cache as above: 8 before both.
    "search (browse)": 3,
  },
  // Each audit row is its statement plus the NOTIFY on its own, best effort after commit: inside
  // the insert a notify that could not be queued failed the row and the call.
  postgres: {
    "tools/list": 1,
    "get_context order": 3,
    "navigate shop://order/{id}": 3, // 4 before the applied-actions stamp
    search_capabilities: 3,
    "search (browse)": 5, // 6 before the applied-actions stamp
  },
};

describeEachProvider("database queries per MCP call (%s)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
    allowEgressTo(w.legacy.url);
  }, 120_000);
  afterAll(async () => w?.close());

  it("each common call stays within its query budget", async () => {
    const seen: Record<string, string[]> = {};
    const counts = await countQueriesPerOperation(w.database.url, w.keys.alice, {
      onQuery: (operation: string, query: DbQuery) => {
        seen[operation] = [...(seen[operation] ?? []), query.query.replace(/\s+/g, " ").trim().slice(0, 160)];
      },
    });
    expect(Object.keys(counts)).toEqual(COUNTED_OPERATIONS.map(([label]) => label));
    // SIGNPOST_PRINT_QUERIES=1 prints what each call sent, to see what could go.
    if (process.env.SIGNPOST_PRINT_QUERIES)
      for (const [operation, sent] of Object.entries(seen))
        console.log(`${provider} ${operation}: ${sent.length}\n  ${sent.join("\n  ")}`);
    for (const [operation, count] of Object.entries(counts))
      expect(count, `${operation} sent:\n${(seen[operation] ?? []).join("\n")}`).toBeLessThanOrEqual(
        BUDGET[provider][operation] ?? 0,
      );
  }, 120_000);
});
