import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLegacyApi } from "../connectors/openapi/import-legacy-api";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/** Ids in the first cells of a listing's rows, in the order shown. */
const rowIds = (markdown: string) => [...markdown.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);

/**
 * Issue 23: "How many tickets has alice@acme.test opened?" searched the address as text in
 * subjects, found nothing, and the model opened all nine tickets for their requester. A search's
 * words now set the listing's address filter, a plain value the system compares whole.
 */
describe("search: an email address filters by it", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("an email address filters the ticket listing by its requester, with or without the listing's name", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const search = async (query: string) =>
      text(await sam.callTool({ name: "search", arguments: { query } }));
    const named = await search("tickets from alice@acme.test");
    expect(named).toContain("(helpdesk://tickets?requester_email=alice%40acme.test) (opened here)");
    expect(named).toContain("Filtered: requester email = alice@acme.test.");
    const raised = rowIds(named);
    expect(raised.length).toBeGreaterThan(0);
    expect(raised.length).toBeLessThan(9);
    // The answer counts them, so "how many" is this one call.
    expect(named).toMatch(new RegExp(`Page 1 · ${raised.length} in all`));
    const bare = await search("alice@acme.test");
    expect(rowIds(bare)).toEqual(raised);
    // With a status word: the open ones among them.
    const open = await search("open tickets alice@acme.test");
    expect(open).toContain("requester_email=alice%40acme.test");
    expect(open).toContain("status=open");
    // The address is a value compared whole, never a pattern: a wildcard matches nobody.
    const wild = await search("tickets from %@acme.test");
    expect(rowIds(wild)).toEqual([]);
    const caps = await search("tickets from ALICE@acme.test");
    expect(rowIds(caps)).toEqual(raised);
  });
});

describe("search: an imported listing's address filter", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await importLegacyApi(w);
  });
  afterAll(async () => w?.close());

  it("the imported ticket listing's requester_email parameter takes the address the words hold", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const found = text(
      await sam.callTool({
        name: "search",
        arguments: { query: "legacy tickets alice@acme.test", scheme: "legacy" },
      }),
    );
    expect(found).toContain("requester_email=alice%40acme.test");
    expect(found).toContain("(opened here)");
    expect(rowIds(found).length).toBeGreaterThan(0);
    expect(rowIds(found).length).toBeLessThan(9);
  });
});

/**
 * A customer sees only the tickets they raised: that is now the API's requester filter, so pages
 * and totals count only theirs. Found while playing issue 23: alice's "not included: pending (1 …)"
 * missed one of her two pending tickets, counted from a page filtered after the fact.
 */
describe("a customer's own tickets, paged and counted by the system", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("pages of her own tickets count all of hers and go on; someone else's address shows none", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const nav = async (uri: string) => text(await alice.callTool({ name: "navigate", arguments: { uri } }));
    const all = await nav("helpdesk://tickets?per_page=50");
    const mine = rowIds(all);
    expect(mine.length).toBeGreaterThan(2);
    const first = await nav("helpdesk://tickets?per_page=2");
    expect(rowIds(first)).toEqual(mine.slice(0, 2));
    expect(first).toContain(`Page 1 · ${mine.length} in all`);
    expect(first).toContain("Next page");
    const other = await nav("helpdesk://tickets?requester_email=sam%40acme.test");
    expect(rowIds(other)).toEqual([]);
  });
});
