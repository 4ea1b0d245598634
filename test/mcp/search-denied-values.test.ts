import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * A listing's enumerated value the words deny ("my orders not yet delivered", "tickets not
 * resolved") leaves those rows out where every row is on the page, and says so; played (issue
 * 23): the answer was "this listing cannot leave a value out; not applied" and the model filtered
 * all eight orders by hand.
 */
describe("search leaves out the values its words deny (MCP over HTTP, real legacy service)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  /** The status cells of the opened listing's table. */
  const statuses = (t: string) =>
    t
      .split("\n")
      .filter((l) => /^\| `(ord|tkt)_/.test(l))
      .map((l) => (l.split("|")[2] ?? "").trim().split(" · ")[0]);

  it("orders not yet delivered: no delivered row, the rest kept, said in one line", async () => {
    const client = await w.connect(w.keys.alice);
    const t = text(
      await client.callTool({ name: "search", arguments: { query: "my orders not yet delivered" } }),
    );
    expect(t).not.toMatch(/cannot leave a value out/);
    expect(t).toMatch(
      /`not delivered`: 4 `status delivered` rows left out here; the 4 shown are every row with another `status`/,
    );
    expect(statuses(t)).toEqual(["pending_payment", "paid", "shipped", "cancelled"]);
  });

  it("tickets not resolved: the same rule on the helpdesk's own listing", async () => {
    const client = await w.connect(w.keys.sam);
    const t = text(await client.callTool({ name: "search", arguments: { query: "tickets not resolved" } }));
    expect(t).toMatch(/`not resolved`: \d+ `status resolved` rows? left out here/);
    expect(statuses(t).length).toBeGreaterThan(0);
    expect(statuses(t)).not.toContain("resolved");
  });
});
