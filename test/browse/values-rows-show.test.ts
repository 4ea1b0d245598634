import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Words that name values a listing's rows show (a priority column's high and urgent) open that
 * listing, even where the same words rank a form that sets those values above it. Issue 23
 * played: "List the high or urgent tickets that are not resolved yet" returned only page and
 * capability links, and the model opened the whole listing and filtered it by hand.
 */
describe("search opens the listing whose rows show the values the words name", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("opens the listing with the words' column shown, saying what it could not apply", async () => {
    const sam = await w.connect(w.keys.sam);
    for (const query of ["List the high or urgent tickets that are not resolved yet.", "urgent tickets"]) {
      const page = text(await sam.callTool({ name: "search", arguments: { query } }));
      expect(page).toMatch(/^## \[Tickets\]\(helpdesk:\/\/tickets[^)]*\) \(opened here\)$/m);
      expect(page).toMatch(/^\| id \| subject \|( description \|)? status \| priority \|/m);
      expect(page).toMatch(/\| `tkt_9` \| Wrong size tee \|( [^|]+ \|)? open \| urgent \|/);
      // One value is the listing's filter; two are kept from its whole page (set O).
      expect(page).toMatch(
        query === "urgent tickets"
          ? /^Filtered: priority = urgent; not included: low \(\d+\), normal \(\d+\), high \(\d+\)\.$/m
          : /^`high or urgent`: \d+ rows with `priority` low or normal left out here/m,
      );
      expect(page).not.toContain("## Records (none holds every word");
    }
  });

  it("words the rows do not show open nothing", async () => {
    const sam = await w.connect(w.keys.sam);
    const page = text(await sam.callTool({ name: "search", arguments: { query: "tickets about dragons" } }));
    expect(page).not.toMatch(/\| id \| subject \|/);
  });
});
