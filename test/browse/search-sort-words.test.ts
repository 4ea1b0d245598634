import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sortFromWords } from "@/server/browse/sort-words";
import { importLegacyApi } from "../connectors/openapi/import-legacy-api";
import { sameCreatedAt } from "../helpers/same-created-at";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/** The money cells of a listing's rows ("$18.00"), in the order shown, as cents. */
const prices = (markdown: string) =>
  [...markdown.matchAll(/\| \$(\d+)\.(\d\d) \|/g)].map((m) => Number(m[1]) * 100 + Number(m[2]));

/**
 * Sort words in a search sort the listing it opens, by the sort the listing declares, and are
 * never its text filter: round 4's model searched "products cheapest first" and got "No product
 * matches `cheapest first`".
 */
describe("search: sort words", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await importLegacyApi(w);
  });
  afterAll(async () => w?.close());

  it("sort a hand-written listing that declares the sort, either way, and never filter it", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const search = async (query: string) =>
      text(await alice.callTool({ name: "search", arguments: { query } }));
    const cheapest = await search("products cheapest first");
    expect(cheapest).toContain("## [Products](shop://products?sort=price) (opened here)");
    expect(cheapest).toContain("Cheapest first.");
    const up = prices(cheapest);
    expect(up.length).toBeGreaterThan(3);
    expect(up).toEqual([...up].sort((a, b) => a - b));
    const dear = await search("most expensive products");
    expect(dear).toContain("(shop://products?sort=-price) (opened here)");
    expect(prices(dear)).toEqual([...up].sort((a, b) => b - a));
    // With other words: those narrow it, the sort words sort it.
    expect(await search("cheapest mug products")).toMatch(
      /\(shop:\/\/products\?(q=mug&sort=price|sort=price&q=mug)\)/,
    );
    // The helpdesk's own values, by the words around them too ("first" is no ticket's text).
    const newest = await search("newest tickets first");
    expect(newest).toContain("(helpdesk://tickets?sort=newest) (opened here)");
    // Where no listing opens, the records searched for are the other words' ("headphones").
    expect(await search("cheapest headphones")).toContain("(shop://product/prod_headphones)");
    for (const query of ["products cheapest first", "most expensive products", "newest tickets first"])
      expect(await search(query)).not.toMatch(/[?&]q=|No \w+ matches/);
  });

  it("'most recently opened' sorts by creation, either word order; 'most recently updated' does not", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const search = async (query: string) =>
      text(await sam.callTool({ name: "search", arguments: { query } }));
    for (const query of ["most recently opened ticket", "which ticket was opened most recently"]) {
      const page = await search(query);
      // The imported copy of the same API may answer first: either listing, newest first.
      expect(page, query).toMatch(/tickets\?sort=(newest|-created_at)\) \(opened here\)/);
      expect(page, query).not.toMatch(/`opened` matched no/);
    }
    expect(await search("most recently updated ticket")).not.toMatch(/sort=(newest|-created_at)/);
    expect(sortFromWords("tickets raised most recently", { sort: ["newest", "oldest"] }).params).toEqual([
      "sort=newest",
    ]);
  });

  it("'most urgent first' ranks and filters nothing: the open billing ticket is shown, said unsorted", async () => {
    // Set AK: "urgent" filtered the tickets to the urgent ones, none, and read as no open ticket.
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const page = text(
      await sam.callTool({
        name: "search",
        arguments: { query: "open tickets on the billing team, most urgent first" },
      }),
    );
    expect(page).not.toMatch(/priority=urgent/);
    expect(page).toContain("`tkt_1`");
    expect(page).toContain("`most urgent` did not sort this listing");
  });

  it("a listing that declares no such sort says so, and the words are not its filter", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const oldest = text(await alice.callTool({ name: "search", arguments: { query: "oldest orders" } }));
    expect(oldest).toContain("(shop://orders) (opened here)");
    expect(oldest).toContain("`oldest` did not sort this listing: it declares no such sort.");
    expect(oldest).not.toContain("did not filter");
  });

  it("a listing already in the asked order says nothing of a sort it does not declare", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const latest = text(await alice.callTool({ name: "search", arguments: { query: "my latest order" } }));
    expect(latest).toContain("(shop://orders) (opened here)");
    expect(latest).toContain("Newest first.");
    expect(latest).not.toContain("did not sort");
  });

  it("a start's age words order the records it offers when no one record is the oldest", async () => {
    await w.legacy.reset();
    // The demo opens no two tickets at one instant: tkt_2 is made as old as tkt_1 here.
    sameCreatedAt(w.legacy, "tkt_2", "tkt_1");
    const sam = await w.connect(w.keys.sam);
    const bump = async () =>
      text(
        await sam.callTool({
          name: "start_action",
          arguments: { intent: "bump the oldest open ticket to urgent", dry_run: true },
        }),
      );
    // tkt_1 and tkt_2 were opened at the same time: both first, then the rest by age; only the
    // open ones the words describe, and the heading says so.
    expect(await bump()).toMatch(
      /^options\.tickets \(for ticket_id; only the open ones \(\d+ others left out\), oldest first by creation\):\n- `tkt_[12]` .*\n- `tkt_[12]` .*\n- `tkt_9` .*\nnext:/m,
    );
    // As seeded, one open ticket is the oldest: that one is taken.
    await w.legacy.reset();
    expect(await bump()).toMatch(/ticket_id = tkt_1/);
  });

  it("an imported listing whose parameter declares a sort enum takes sort words by the values' names", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const search = async (query: string) =>
      text(await sam.callTool({ name: "search", arguments: { query, scheme: "legacy" } }));
    const products = await search("products cheapest first");
    expect(products).toContain("(legacy://v1/products?sort=price) (opened here)");
    const tickets = await search("oldest tickets");
    expect(tickets).toContain("(legacy://v1/tickets?sort=created_at) (opened here)");
    const newest = await search("newest tickets first");
    expect(newest).toContain("(legacy://v1/tickets?sort=-created_at) (opened here)");
  });
});

describe("sortFromWords: a sort by the names of a listing's values", () => {
  it("takes first, last and sort as sort words only where they place a sort", () => {
    const used = (q: string) => [...sortFromWords(q, undefined).used];
    expect(used("cheapest first aid kit")).not.toContain("first");
    expect(used("cheapest first")).toContain("first");
    expect(used("newest tickets first")).toContain("first");
    expect(used("sorted by newest")).toContain("sorted");
    expect(used("sort codes, newest")).not.toContain("sort");
    expect(used("last mile cheapest")).not.toContain("last");
  });

  it("takes the value that is the word, or one naming the field and the direction", () => {
    const spec = { sort: ["price_asc", "price_desc", "name"] };
    expect(sortFromWords("cheapest first", spec).params).toEqual(["sort=price_asc"]);
    expect(sortFromWords("priciest", spec).params).toEqual(["sort=price_desc"]);
    expect(sortFromWords("newest", { sort: ["updated", "oldest", "newest"] }).params).toEqual([
      "sort=newest",
    ]);
    // "newest last" is the oldest first.
    expect(sortFromWords("tickets newest last", { sort: ["oldest", "newest"] }).params).toEqual([
      "sort=oldest",
    ]);
    // A field with a separate direction filter.
    expect(
      sortFromWords("most expensive", { sort_by: ["price", "created"], order: ["asc", "desc"] }).params,
    ).toEqual(["sort_by=price", "order=desc"]);
    expect(sortFromWords("oldest", { orderBy: ["createdAt", "-createdAt"] }).params).toEqual([
      "orderBy=createdAt",
    ]);
  });

  it("uses every sort word, sorts by none a listing does not declare, and finds none in plain words", () => {
    const none = sortFromWords("cheapest first", { q: "free text", status: ["open", "closed"] });
    expect(none.params).toEqual([]);
    expect(none.unsorted).toBe("cheapest");
    expect([...none.used].sort()).toEqual(["cheapest", "first"]);
    // Last-changed is no age: "oldest" does not sort by an update time.
    expect(sortFromWords("oldest", { sort: ["-updated_at", "updated_at"] }).params).toEqual([]);
    const plain = sortFromWords("my first order", { sort: ["oldest", "newest"] });
    expect(plain.params).toEqual([]);
    expect(plain.used.size).toBe(0);
  });
});
