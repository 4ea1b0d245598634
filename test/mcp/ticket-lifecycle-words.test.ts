import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Set AW (played): "Show me the tickets alice@acme.test raised that aren't resolved yet" kept the
 * closed tkt_8 among them; a closed ticket was resolved first (the helpdesk closes only resolved
 * ones), so the tickets listing's lifecycle leaves it out too. Pending stays: set aside from open.
 */
describe('a ticket\'s lifecycle reads "not resolved" (MCP over HTTP)', () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const rowIds = (t: string) => [...t.matchAll(/^\| `(tkt_\w+)` \|/gm)].map((m) => m[1]);

  it("not resolved yet leaves out resolved and closed tickets, keeps pending ones", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = text(
      await sam.callTool({
        name: "search",
        arguments: { query: "tickets alice@acme.test raised that aren't resolved yet" },
      }),
    );
    const ids = rowIds(out);
    expect(ids).not.toContain("tkt_8");
    expect(ids).toEqual(expect.arrayContaining(["tkt_1", "tkt_2", "tkt_3", "tkt_4", "tkt_9"]));
    // "Not closed" leaves only the closed ones: a resolved ticket was never closed.
    const open = rowIds(
      text(await sam.callTool({ name: "search", arguments: { query: "tickets that are not closed" } })),
    );
    expect(open).toContain("tkt_6");
    expect(open).not.toContain("tkt_7");
  });
});
