import { describe, expect, it } from "vitest";
import { narrowedListing } from "@/server/browse/listing-words";
import { wordsAlone } from "@/server/browse/opened-section";
import { STOP, words } from "@/server/browse/route-words";
import type { BrowseBackend } from "@/server/connectors/sdk/browse-backend";
import type { RouteDefinition } from "@/server/connectors/sdk/define-route";

/**
 * A negation right before a word no filter reads is the record's own text ("Coupon not
 * applied"): it stays in the text filter. Played: "coupon not applied ticket" searched `coupon
 * applied`, no subject says that, and the one ticket was listed by `coupon` alone.
 */
describe("narrowedListing: a negation in a record's words", () => {
  const route: RouteDefinition = {
    pattern: "demo://bills",
    title: "Bills",
    description: "Bills.",
    keywords: ["bills"],
    startPoint: true,
    filters: { state: ["paid", "draft"], shipped_at: "event time", q: "free text" },
    textSearches: "titles of bills",
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

  it("'not applied', 'never arrived', 'no refund' are searched as said", async () => {
    const coupon = await narrow("bill coupon not applied");
    expect(coupon.leftover).toBe("coupon not applied");
    expect(coupon.uri).toBe("demo://bills?q=coupon%20not%20applied");
    expect((await narrow("bill parcel never arrived")).leftover).toBe("parcel never arrived");
    expect((await narrow("bill with no refund")).leftover).toBe("no refund");
  });

  it("a negation denying a value or an event is read, never searched: 'not paid', 'not shipped'", async () => {
    const unpaid = await narrow("bills not paid");
    expect(unpaid.leftover).toBe("");
    expect(unpaid.excluded).toEqual([{ key: "state", values: ["paid"], said: ["paid"] }]);
    const unshipped = await narrow("bills not shipped");
    expect(unshipped.uri).toBe("demo://bills?shipped_at=none");
    expect(unshipped.leftover).toBe("");
    // One reaching past other words says what is not meant, no words of a record: never the
    // text filter, which would list the rows holding it (without-denied-words.ts).
    const login = await narrow("bills not about login");
    expect(login.leftover).toBe("");
    expect(login.denied).toEqual(["login"]);
    expect(login.uri).toBe("demo://bills");
  });

  it("a negation is never searched alone", () => {
    expect(wordsAlone(["coupon", "not", "applied"])).toEqual(["coupon", "applied"]);
    expect(wordsAlone(["no", "refund"])).toEqual(["refund"]);
    expect(wordsAlone(["login", "problem", "page", "error"])).toEqual(["login", "problem", "page"]);
  });
});
