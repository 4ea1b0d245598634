import { describe, expect, it } from "vitest";
import { narrowedListing } from "@/server/browse/listing-words";
import type { BrowsePage } from "@/server/browse/render-page";
import { STOP, words } from "@/server/browse/route-words";
import { withoutDeniedWords } from "@/server/browse/without-denied-words";
import type { BrowseBackend } from "@/server/connectors/sdk/browse-backend";
import type { RouteDefinition } from "@/server/connectors/sdk/define-route";

/**
 * A word the query denies that only text could match ("notes not about invoices") never goes to
 * the text filter, which finds rows holding it: issue 23's "open tickets not about headphones"
 * listed exactly the one ticket about headphones. Where the listing is whole its rows holding the
 * word are left out, said in one line; with more pages nothing is, and the line says why.
 */
describe("withoutDeniedWords: a denied word no filter reads", () => {
  const route: RouteDefinition = {
    pattern: "demo://notes",
    title: "Notes",
    description: "Notes.",
    keywords: ["notes"],
    startPoint: true,
    filters: { state: ["draft", "sent"], q: "free text" },
    textSearches: "titles of notes",
    render: async () => ({ title: "Notes", outcome: "applied", markdown: "" }),
  };
  const narrow = (q: string) =>
    narrowedListing(
      {} as BrowseBackend,
      route.pattern,
      route,
      words(q).filter((w) => !STOP.has(w)),
      q,
    );
  const table = [
    "| id | title | state |",
    "| --- | --- | --- |",
    "| `n_1` | Invoices for March | sent |",
    "| `n_2` | Team lunch | draft |",
    "| `n_3` | Old invoice copy | sent |",
  ];
  const page = (total: number): BrowsePage => ({
    uri: "demo://notes",
    title: "Notes",
    outcome: "applied",
    markdown: [...table, "", `Page 1 · ${total} in all`].join("\n"),
    links: [],
    rows: 3,
    total,
    items: ["n_1", "n_2", "n_3"].map((id) => ({ id, title: id })),
  });

  it("reaching past words or right after the listing's word, it is denied, never the text", async () => {
    for (const q of [
      "notes not about invoices",
      "notes except invoices",
      "notes other than the invoices one",
    ]) {
      const listing = await narrow(q);
      expect(listing.uri).toBe("demo://notes");
      expect(listing.leftover).toBe("");
      expect(listing.denied).toEqual(["invoices"]);
    }
    // A record's own words keep their negation: searched as said.
    const own = await narrow("notes invoice not sent yet");
    expect(own.denied).toEqual([]);
  });

  it("a whole listing loses the rows holding it (by stems), said in one line", () => {
    const cut = withoutDeniedWords(page(3), ["invoices"], true, route);
    expect(cut.said).toBe(
      "`not invoices`: 2 rows holding `invoices` left out here; the 1 shown are every other row (all 3 fit on this page).",
    );
    expect(cut.page.markdown).not.toMatch(/n_1|n_3/);
    expect(cut.page.markdown).toContain("`n_2`");
    expect(cut.page.rows).toBe(1);
    expect(cut.page.items?.map((i) => i.id)).toEqual(["n_2"]);
    expect(cut.cut).toEqual({ gone: 2, denied: "`not invoices`" });
  });

  it("a listing of several pages is not cut: the line says why and how to narrow it", () => {
    const cut = withoutDeniedWords(page(40), ["invoices"], false, route);
    expect(cut.page.markdown).toContain("`n_1`");
    expect(cut.said).toBe(
      "`not invoices`: not applied (the listing has more than one page, and its text filter `q` finds rows holding words, never rows without them): narrow it by `?state=` until its rows fit one page, then search again.",
    );
    expect(cut.cut).toBeNull();
  });
});
