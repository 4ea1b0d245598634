import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * A search asking which records an action is possible for points at the capability's dry run in
 * one line: round 3's model searched "orders I can return", got a list of pages, opened orders.
 */
describe("search: words asking whether an action is possible", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("name the capability and its dry run, first; other words do not", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const search = async (query: string) =>
      text(await alice.callTool({ name: "search", arguments: { query } }));
    for (const query of ["orders I can return", "which orders can still be refunded"]) {
      const found = await search(query);
      const line = found
        .split("\n")
        .find((l) => l.startsWith("Whether it is possible is `after_sales`'s to say"));
      expect(line, found).toContain(
        'start_action {"capability":"after_sales","entity_id":"…","dry_run":true}',
      );
      // Said before any page or record.
      expect(found.indexOf(line as string)).toBeLessThan(found.indexOf("## "));
    }
    expect(await search("my delivered orders")).not.toContain("Whether it is possible");
  });
});
