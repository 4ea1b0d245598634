import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Review 68: a search that opened a record told a browse-only agent "(or start_action with just
 * the user's words: it finds the record itself, no search needed)", a tool it does not have. The
 * hint is for callers with the action face only.
 */
describe("a browse-only caller is never pointed at start_action beside a record's forms", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("search and navigate: the forms' line without the hint; with the action face, with it", async () => {
    const browse = await w.connect(w.keys.sam, { faces: "browse" });
    const found = text(
      await browse.callTool({ name: "search", arguments: { query: "charged twice ticket" } }),
    );
    expect(found).toMatch(/Submit a line's form \(\* required\) with user_words/);
    expect(found).not.toMatch(/start_action/);
    const page = text(
      await browse.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/tkt_1" } }),
    );
    expect(page).not.toMatch(/\(or start_action/);
    const both = await w.connect(w.keys.sam);
    const hinted = text(
      await both.callTool({ name: "search", arguments: { query: "charged twice ticket" } }),
    );
    expect(hinted).toMatch(
      /\(or start_action with just the user's words: it finds the record itself, no search needed\)/,
    );
  });
});
