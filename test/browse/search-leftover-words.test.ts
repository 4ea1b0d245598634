import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLegacyApi } from "../connectors/openapi/import-legacy-api";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/** Ids in the first cells of a listing's rows, in the order shown. */
const rowIds = (markdown: string) => [...markdown.matchAll(/^\| \[(\w+)\]/gm)].map((m) => m[1]);

/**
 * The words of a search left after naming a listing and its filter values narrow it through the
 * listing's free-text filter, or are said not to have filtered it: round 3's model searched
 * "login ticket", got all nine tickets, and scanned them to learn that none was about a login.
 */
describe("search: words left over after naming a listing", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("narrow the listing through its free-text filter, and say in one line when nothing matches", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const search = async (query: string) =>
      text(await sam.callTool({ name: "search", arguments: { query } }));
    const login = await search("login ticket");
    expect(login).toContain("## [Tickets](helpdesk://tickets?q=login) (opened here)");
    expect(login).toContain(
      "No ticket matches `login` (searched: subjects and descriptions of tickets); all tickets: [Tickets](helpdesk://tickets)",
    );
    expect(rowIds(login)).toEqual([]);
    // Words that match narrow it, spelt as the query spelt them.
    const headphones = await search("headphones tickets");
    expect(headphones).toContain("(helpdesk://tickets?q=headphones) (opened here)");
    expect(rowIds(headphones)).toEqual(["tkt_2"]);
    // With a filter value named too: both apply, and "all" keeps the filter.
    const openLogin = await search("open login tickets");
    expect(openLogin).toMatch(
      /^## \[Tickets\]\(helpdesk:\/\/tickets\?(q=login&status=open|status=open&q=login)\) \(opened here\)$/m,
    );
    expect(openLogin).toContain("all tickets: [Tickets](helpdesk://tickets?status=open)");
    // Words that frame the request are not searched for: only "login" is.
    const framed = await search("can you find tickets about login please");
    expect(framed).toContain("(helpdesk://tickets?q=login) (opened here)");
    // "can you …" asks to read, not whether an action is possible.
    expect(framed).not.toContain("Whether it is possible");
    expect(await search("show me all open tickets please")).not.toContain("q=");
    // Words that only name the listing and its values leave it whole, as before.
    expect(await search("oldest open tickets")).not.toContain("q=");
  });

  it("a listing with no free-text filter says the words did not filter it", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const recent = text(await alice.callTool({ name: "search", arguments: { query: "recent orders" } }));
    expect(recent).toContain("(shop://orders) (opened here)");
    expect(recent).toContain("`recent` did not filter this listing: it has no text filter.");
    expect(rowIds(recent).length).toBeGreaterThan(3);
  });
});

describe("search: words left over, on an imported system's listing", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await importLegacyApi(w);
  });
  afterAll(async () => w?.close());

  it("an imported listing's free-text parameter narrows it the same way", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const found = text(
      await sam.callTool({
        name: "search",
        arguments: { query: "legacy tickets headphones", scheme: "legacy" },
      }),
    );
    expect(found).toMatch(/\(legacy:\/\/v1\/tickets\?q=headphones\) \(opened here\)/);
    expect(found).toContain("tkt_2");
    expect(found).not.toContain("tkt_1");
  });
});
