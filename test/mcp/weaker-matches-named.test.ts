import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set I, task 10 (issue 23): looking for a capability that does not exist (move a ticket to a
 * team), the model read "(4 weaker matches left out)", asked again with `limit: 5`, and read the
 * same count: the weaker matches could not be seen at all. Each is now named in one short line.
 * Real MCP client over HTTP.
 */
describe("search_capabilities names the weaker matches it does not describe (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());

  it("every match in the result is named in the text, the strong ones described", async () => {
    const sam = await w.connect(w.keys.sam);
    const res = await sam.callTool({
      name: "search_capabilities",
      arguments: { query: "move the invoice ticket to the shipping team", limit: 5 },
    });
    const results = (sc(res).results ?? []) as Array<{ capability: string }>;
    const out = text(res);
    const described = out.split("\n").filter((l) => /^\d+\. `/.test(l)).length;
    expect(results.length).toBeGreaterThan(described);
    expect(out).toMatch(/^weaker matches: `/m);
    for (const r of results) expect(out).toContain(`\`${r.capability}\``);
    expect(out).not.toMatch(/weaker matches left out/);
  });
});
