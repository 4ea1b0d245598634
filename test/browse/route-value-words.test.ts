import { describe, expect, it } from "vitest";
import { narrowedListing } from "@/server/browse/listing-words";
import { STOP, scoreRoute, words } from "@/server/browse/route-words";
import type { BrowseBackend } from "@/server/connectors/sdk/browse-backend";
import type { RouteDefinition } from "@/server/connectors/sdk/define-route";

/**
 * The rule in search's ranking, on routes of no system: a filter value's words count toward a
 * listing only beside a word for its records, and then outweigh a page that holds the same words.
 */
describe("scoreRoute: a listing's filter values, named beside its records", () => {
  const listing: RouteDefinition = {
    pattern: "demo://widgets",
    title: "Widgets",
    description: "Widgets, filter with ?finish=matte|gloss.",
    keywords: ["widgets", "my widgets"],
    startPoint: true,
    filters: { finish: ["matte", "gloss"] },
    valueWords: { finish: { gloss: ["shiny coat"] } },
    render: async () => ({ title: "Widgets", outcome: "applied", markdown: "" }),
  };
  const page: RouteDefinition = {
    pattern: "demo://account",
    title: "Account",
    description: "Your account.",
    keywords: ["account", "shiny coat"],
    startPoint: true,
    render: async () => ({ title: "Account", outcome: "applied", markdown: "" }),
  };
  const score = (q: string, r: RouteDefinition) => scoreRoute(words(q), r);

  it("people's words for a value, with the records named, rank the listing first", () => {
    expect(score("widgets shiny coat", listing)).toBeGreaterThan(score("widgets shiny coat", page));
    expect(score("gloss widgets", listing)).toBeGreaterThan(score("widgets", listing));
  });

  it("without a word for the records, a value's words are no listing's", () => {
    expect(score("shiny coat", listing)).toBe(0);
    expect(score("shiny coat", page)).toBeGreaterThan(0);
    // Part of the phrase names nothing.
    expect(score("widgets shiny", listing)).toBe(score("widgets", listing));
  });
});

/**
 * What the words do to the listing they open: a value named by people's longer words wins over
 * another filter's value whose word is among them, and is said back in the fewest of their words.
 */
describe("narrowedListing: people's words for a value, beside another filter's value", () => {
  const route: RouteDefinition = {
    pattern: "demo://bills",
    title: "Bills",
    description: "Bills.",
    keywords: ["bills"],
    startPoint: true,
    filters: { state: ["paid", "draft"], method: ["voucher", "cash"], q: "free text" },
    valueWords: { method: { voucher: ["gift voucher", "gift card", "paid with a gift card"] } },
    render: async () => ({ title: "Bills", outcome: "applied", markdown: "" }),
  };
  const narrow = (q: string) =>
    narrowedListing(
      {} as BrowseBackend,
      route.pattern,
      route,
      words(q).filter((w) => !STOP.has(w)),
      q,
    );

  it("'paid with a gift card' is how it was paid, not the state paid, said in the fewest words", async () => {
    const bills = await narrow("bills I paid with a gift card");
    expect(bills.uri).toBe("demo://bills?method=voucher");
    expect(bills.filtered).toEqual(["method = voucher (gift card)"]);
    expect(bills.ambiguous).toEqual([]);
    expect(bills.leftover).toBe("");
  });

  it("the state alone is the state; the value's own word is said as it is", async () => {
    expect((await narrow("paid bills")).uri).toBe("demo://bills?state=paid");
    // "gift voucher" says no more than `voucher`.
    const voucher = await narrow("bills by gift voucher");
    expect(voucher.uri).toBe("demo://bills?method=voucher");
    expect(voucher.filtered).toEqual(["method = voucher"]);
  });
});
