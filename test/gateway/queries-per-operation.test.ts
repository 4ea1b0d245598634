import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbQuery } from "@/server/db/client";
import { allowEgressTo } from "../helpers/allow-egress";
import { COUNTED_OPERATIONS, countQueriesPerOperation } from "../helpers/count-queries";
import { describeEachProvider } from "../helpers/database";
import { createWorld, type World } from "./gateway-world";

/**
 * Issue 22: the SQL statements one MCP call sends, through the whole HTTP face (key, budget,
 * server, gateway, audit), in the steady state (the tenant's setup already cached). A change that
 * adds a query to a common call fails here: raise a budget only with a reason in the commit.
 * Audit rows are 3 statements each (the tenant's next number, the row, COMMIT); a known agent key
 * costs 1, the tenant row (name, script limits and the config stamp that says whether the cached
 * key and setup still hold: agent-key-cache.ts), which the MCP request needed anyway.
 */
const BUDGET: Record<string, number> = {
  "tools/list": 1, // the key's tenant row only: the list itself is cached per caller
  "get_context order": 4, // tenant 1 + audit 3
  "navigate shop://order/{id}": 7, // tenant 1 + two audit rows (the page, the view it shows)
  search_capabilities: 4, // tenant 1 + audit 3
  "search (browse)": 7, // tenant 1 + two audit rows; every result authorized from the cached rules
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
        seen[operation] = [...(seen[operation] ?? []), query.query.slice(0, 120)];
      },
    });
    expect(Object.keys(counts)).toEqual(COUNTED_OPERATIONS.map(([label]) => label));
    for (const [operation, count] of Object.entries(counts))
      expect(count, `${operation} sent:\n${(seen[operation] ?? []).join("\n")}`).toBeLessThanOrEqual(
        BUDGET[operation] ?? 0,
      );
  }, 120_000);
});
