import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * A comparison asks of the rows, never of their text. Played (set AE): "Which team has more open
 * tickets, billing or shipping?" searched `more` (and `count vs`) as text, found no ticket, and
 * the model listed the tickets again.
 */
describe("search: words that compare are no text to find", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("the open tickets, with their team, answer which team has more", async () => {
    const sam = await w.connect(w.keys.sam);
    const query = "Which team has more open tickets, billing or shipping?";
    const page = text(await sam.callTool({ name: "search", arguments: { query } }));
    expect(page).toContain("(helpdesk://tickets?status=open) (opened here)");
    expect(page).not.toMatch(/[?&]q=|No ticket matches/);
    expect(page).toContain("| `shipping` |");
    expect(page).toContain("| `billing` |");
  });
});
