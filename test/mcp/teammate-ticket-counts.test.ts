import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Sets AI, AK, AL: "how many tickets has each teammate resolved", "who has the most open tickets",
 * "which teammate has the most tickets" opened the teammates, with no counts, and the models
 * listed every ticket to count them. The teammates page says how many tickets each has, by
 * status, of the tickets the caller may see. Seed: Bella has tkt_3 (pending), tkt_5 (resolved),
 * tkt_7 (closed); tkt_1 and tkt_9 are unassigned.
 */
describe("the teammates page counts each one's tickets (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("each teammate's tickets by status, and the unassigned ones counted", async () => {
    const sam = await w.connect(w.keys.sam);
    const page = text(await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://teammates" } }));
    expect(page).toContain(
      "Tickets assigned to each, by status (of the 9 tickets you can see; 2 unassigned).",
    );
    expect(page).toContain("| id | name | email | team_id | active | open | pending | resolved | closed |");
    expect(page).toMatch(/\| `tm_bella` \| Bella Billing \|[^\n]*\| 0 \| 1 \| 1 \| 1 \|/);
    expect(page).toMatch(/\| `tm_bruno` \| Bruno Billing \|[^\n]*\| 0 \| 0 \| 0 \| 0 \|/);
  });
});
