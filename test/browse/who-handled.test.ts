import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Set CI: "Which tickets were resolved or closed, and by whom were they handled?" searched the
 * tickets' text for "whom handled", found none, and said of the two statuses "not applied (the
 * rows do not show `status`)" of a listing that shows it; the player opened each status's list.
 * "whom" asks, "handled" names what the listing is about (its assignee column), and a cut with
 * no row left says so. Real MCP client, gateway and legacy service.
 */
describe("search: who handled which tickets", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const ids = (page: string) => [...page.matchAll(/^\| `(tkt_\d+)` \|/gm)].map((m) => m[1]);

  it("the resolved and closed tickets, with their assignees, in one answer", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const page = text(
      await sam.callTool({
        name: "search",
        arguments: { query: "Which tickets were resolved or closed, and by whom were they handled?" },
      }),
    );
    expect(ids(page).sort()).toEqual(["tkt_5", "tkt_6", "tkt_7", "tkt_8"]);
    expect(page).toContain("Sid Shipping (`tm_sid`)");
  });

  it("values left out of a listing no row of which is here say so, not that the rows lack the column", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const page = text(
      await sam.callTool({ name: "search", arguments: { query: "tickets resolved or closed about zebras" } }),
    );
    expect(page).not.toContain("the rows do not show `status`");
  });

  it("a team's tickets and who works on them: the tickets, filtered by team, never a text search for 'working'", async () => {
    // Set CK: "… who is working on them" searched the tickets' text for "working".
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    for (const query of [
      "Which billing tickets are there, and who is working on them?",
      "billing tickets and who is handling them",
    ]) {
      const page = text(await sam.callTool({ name: "search", arguments: { query } }));
      expect(page, query).toContain("## [Tickets](helpdesk://tickets?team_id=billing) (opened here)");
      expect(ids(page).sort(), query).toEqual(["tkt_1", "tkt_3", "tkt_5", "tkt_7"]);
    }
    // "working" said of what the ticket is about is searched for (review 65b), and who is on a
    // team is still the teammates.
    const about = text(
      await sam.callTool({ name: "search", arguments: { query: "tickets about the app not working" } }),
    );
    expect(about).toContain("`app not working`");
    const team = text(await sam.callTool({ name: "search", arguments: { query: "list all assignees" } }));
    expect(team).toContain("## [Teammates](helpdesk://teammates) (opened here)");
  });
});
