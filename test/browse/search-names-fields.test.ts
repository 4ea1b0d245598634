import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { columnsWordsName } from "@/server/browse/words-rows-show";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/** Ids in the first cells of a listing's rows, in the order shown. */
const rowIds = (markdown: string) => [...markdown.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);

/**
 * Issue 23: a word naming a field the rows hold ("requester") was searched for as text in
 * subjects, and the model opened every ticket to read it. A search's words naming a field the
 * listing's rows hold beyond its table add that column.
 */
describe("search: words that name a listing's fields", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("a word naming a field the rows hold adds that column instead of searching text for it", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const found = text(await sam.callTool({ name: "search", arguments: { query: "tickets requester" } }));
    expect(found).toContain("(helpdesk://tickets?columns=requester_email) (opened here)");
    expect(found).toContain("Columns added for your words: `requester_email`.");
    expect(rowIds(found)).toHaveLength(9);
    expect(found).not.toContain("No ticket matches");
    expect(found).toMatch(/^\| `tkt_1` \|.*\| alice@acme\.test \|$/m);
  });

  // Issue 23: "my orders coupon" answered five record lines with no coupon (a form taking
  // `coupon_code` outranked the listing), and the model navigated twice more to read it.
  // Set CA: the orders declare "coupon" a word of `discount` too (what it took off), and "used a
  // coupon" keeps the rows that hold one.
  it.each([
    ["my orders coupon", 8],
    ["which of my orders used a coupon", 1],
  ])("%s: the listing opens with the fields the words name, in one call", async (query, rows) => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const found = text(await alice.callTool({ name: "search", arguments: { query } }));
    expect(found).toContain("(shop://orders?columns=discount%2Ccoupon_code) (opened here)");
    expect(found).toContain("Columns added for your words: `discount`, `coupon_code`.");
    expect(found).not.toContain("## Records");
    expect(found).toMatch(/^\| `ord_paid` \|.*\| \$30\.00 \| SAVE30 \|$/m);
    expect(rowIds(found)).toHaveLength(rows);
  });

  it("a word naming only the records adds no column", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const found = text(await alice.callTool({ name: "search", arguments: { query: "my orders" } }));
    expect(found).toContain("(opened here)");
    expect(found).not.toContain("Columns added for your words");
  });

  it("at most three columns are added, however many the words name", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const query = "my orders coupon discount subtotal shipment refundable";
    const found = text(await alice.callTool({ name: "search", arguments: { query } }));
    // Five fields named (coupon_code, discount, subtotal, shipment, refundable): three shown.
    const added = found.match(/^Columns added for your words: (.*)\.$/m)?.[1]?.split(", ") ?? [];
    expect(added).toHaveLength(3);
    expect(found).toMatch(
      /^\| id \| status \| items \| total \| ship_to \| created_at \| [a-z_]+ \| [a-z_]+ \| [a-z_]+ \|$/m,
    );
  });

  it("generic words every listing has name no column", () => {
    const fields = ["status_reason", "total_due", "display_name", "coupon_code", "discount"];
    expect(columnsWordsName("status total name", fields).columns).toEqual([]);
    expect(columnsWordsName("coupon discount", fields)).toEqual({
      columns: ["coupon_code", "discount"],
      words: ["coupon", "discount"],
    });
  });
});
