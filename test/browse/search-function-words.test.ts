import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Browse search compares a query's words after `words()` ("this" → "thi", "does" → "doe"), and
 * its framing words were listed as said: "this" and "does" framed nothing and stood as words to
 * look for. Now built from the one list of function words (server/function-words.ts) through
 * `words()`, as the query is.
 */
describe("search: the words a request is put in, compared as the query's words are", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("'this' beside a record id and its kind still opens the record", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const answer = text(
      await alice.callTool({ name: "search", arguments: { query: "show this order ord_transit" } }),
    );
    expect(answer).toContain("(shop://order/ord_transit) (opened here)");
  });

  it("'does' is no word a record must hold", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const answer = text(
      await sam.callTool({ name: "search", arguments: { query: "does anything mention headphones" } }),
    );
    expect(answer).toContain("## Records");
    expect(answer).not.toContain("none holds every word");
  });
});
