import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * A count asked per value of a listing's filter ("each team", "per priority", "by team") is
 * answered for every value, zero counts included, with the listing's other filters kept: set AM's
 * models read the open tickets' team column, then the teammates page to learn whether a team had
 * none. Only values the caller may read are counted (a customer learns no team through it).
 */
describe("counts per value of a filter (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const search = async (key: string, query: string) =>
    text(await (await w.connect(key)).callTool({ name: "search", arguments: { query } }));

  it.each(["How many open tickets does each team have?", "open tickets by team"])("%s", async (query) => {
    const out = await search(w.keys.sam, query);
    expect(out).toContain("Billing (billing) 1, Shipping (shipping) 2.");
  });

  it("every value is counted, a zero too, and a sort's 'by' counts nothing", async () => {
    expect(await search(w.keys.sam, "urgent tickets per team")).toMatch(
      /Billing \(billing\) 0, Shipping \(shipping\) 1\./,
    );
    expect(await search(w.keys.sam, "tickets sorted by priority")).not.toContain("Per priority");
  });

  it("a caller who may not read the teams is told no count per team", async () => {
    expect(await search(w.keys.alice, "my tickets per team")).not.toContain("Per team_id");
  });
});
