import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Issue 23 (set D, task 2): "When was my backpack delivered?" opened no listing ("delivered" went
 * to a status filter, the delivery time stayed a hidden column), so the model opened the order
 * to read the date. Words asking when an event happened open the listing whose rows keep that
 * event's time, show that column, and name the row the other words point at.
 */
describe("search: words that ask when something happened", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("'when was my backpack delivered' shows delivered_at and names the backpack's row", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const found = text(
      await alice.callTool({ name: "search", arguments: { query: "When was my backpack delivered?" } }),
    );
    expect(found).toContain("(opened here)");
    // Delivered orders show when each was delivered (set BU), so no column is added for the words.
    expect(found).toMatch(/^\| id \|.*\| delivered_at \|$/m);
    expect(found).toMatch(/^\| `ord_shipdiff` \|.*Travel Backpack.*\| 20\d\d-\d\d-\d\d, \d+ days ago/m);
    expect(found).toMatch(/Shown: the 1 of the \d+ rows whose cells hold/);
    expect(found).not.toContain("`ord_transit`");
    expect(found).not.toContain("did not filter this listing");
  });

  it("another event's word shows its own time column ('when did … ship')", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const found = text(
      await alice.callTool({ name: "search", arguments: { query: "when did my headphones order ship" } }),
    );
    expect(found).toContain("Columns added for your words: `shipped_at`.");
    expect(found).toMatch(/Shown: the 1 of the \d+ rows whose cells hold/);
    expect(found).toContain("`ord_transit`");
  });

  it("words that ask no 'when' add no time column beyond the listed state's own", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const office = text(
      await alice.callTool({ name: "search", arguments: { query: "my orders to my office" } }),
    );
    expect(office).not.toMatch(/(delivered|shipped|paid)_at \|/);
    const delivered = text(
      await alice.callTool({ name: "search", arguments: { query: "my delivered orders" } }),
    );
    expect(delivered).toContain("| created_at | delivered_at |");
    expect(delivered).not.toMatch(/(shipped|paid)_at \|/);
  });
});
