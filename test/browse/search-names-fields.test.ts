import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/** Ids in the first cells of a listing's rows, in the order shown. */
const rowIds = (markdown: string) => [...markdown.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);

/**
 * Issue 23: a word naming a field the rows hold ("requester") was searched for as text in
 * subjects, and the model opened every ticket to read it. A search's words naming a field the
 * listing's rows hold beyond its table add that column.
 */
describe("search: words that name a listing's fields", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("a word naming a field the rows hold adds that column instead of searching text for it", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const found = text(await sam.callTool({ name: "search", arguments: { query: "tickets requester" } }));
    expect(found).toContain("(helpdesk://tickets?columns=requester_email) (opened here)");
    expect(found).toContain("Columns added for your words: `requester_email`.");
    expect(rowIds(found)).toHaveLength(9);
    expect(found).not.toContain("No ticket matches");
    expect(found).toMatch(/^\| `tkt_1` \|.*\| alice@acme\.test \|$/m);
  });
});
