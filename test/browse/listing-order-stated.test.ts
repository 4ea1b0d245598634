import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLegacyApi } from "../connectors/openapi/import-legacy-api";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/** The `created_at` cells of a listing's rows, in the order shown (the minute where it is shown). */
const created = (markdown: string) =>
  [...markdown.matchAll(/\| (\d{4}-\d\d-\d\d(?: \d\d:\d\d UTC)?), /g)].map((m) => m[1] as string);

/**
 * Every list states its order, and an empty one says why (issue 23): an imported listing sorted
 * by the search's words said nothing of its order (its title even read "most recently updated
 * first"), and an empty one answered "_(none)_". Real MCP client, gateway, imported connector.
 */
describe("search: an opened listing states the order its rows are in, and why it is empty", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await importLegacyApi(w);
  });
  afterAll(async () => w?.close());

  it("an imported listing the words sorted says the order, and its rows are in it", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const search = async (query: string) =>
      text(await sam.callTool({ name: "search", arguments: { query, scheme: "legacy" } }));
    const oldest = await search("oldest tickets");
    expect(oldest).toContain("(legacy://v1/tickets?sort=created_at) (opened here)");
    expect(oldest).toContain("Oldest first: sorted by `sort=created_at`.");
    const up = created(oldest);
    expect(up.length).toBeGreaterThan(3);
    expect(up).toEqual([...up].sort());
    const newest = await search("newest tickets first");
    expect(newest).toContain("Newest first: sorted by `sort=-created_at`.");
    expect(created(newest)).toEqual([...up].sort().reverse());
    // A listing that states its own order is not told it twice.
    const own = text(
      await sam.callTool({ name: "search", arguments: { query: "oldest tickets", scheme: "helpdesk" } }),
    );
    expect(own).toContain("Oldest first, by created_at.");
    expect(own).not.toContain("sorted by `sort=");
  });

  it("no two demo tickets were opened at one instant: the oldest open one is one, to the minute", async () => {
    // Played (set CC): three tickets seeded at the same second; "the oldest open ticket" showed
    // two first at one minute and both players read on to learn which was older.
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const page = text(
      await sam.callTool({
        name: "search",
        arguments: { query: "What's the oldest ticket that's still open?" },
      }),
    );
    const cells = created(page);
    expect(cells.length).toBeGreaterThan(1);
    expect(new Set(cells).size).toBe(cells.length);
    const all = created(
      text(await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://tickets?sort=oldest" } })),
    );
    expect(new Set(all).size).toBe(all.length);
  });

  it("an empty listing says which filters left nothing, hand-written or imported", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const nav = async (uri: string) => text(await sam.callTool({ name: "navigate", arguments: { uri } }));
    const imported = await nav("legacy://v1/tickets?status=closed&team_id=billing&assignee_id=tm_sid");
    expect(imported).toContain("None with `status=closed`, `team_id=billing`, `assignee_id=tm_sid`.");
    expect(imported).not.toContain("_(none)_");
    const own = await nav("helpdesk://tickets?status=closed&team_id=billing&q=zebra");
    expect(own).toContain("None with `status=closed`, `team_id=billing`, `q=zebra`.");
    expect(own).not.toContain("_(none)_");
  });
});
