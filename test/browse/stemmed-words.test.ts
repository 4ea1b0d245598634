import { describe, expect, it } from "vitest";
import { stemmedWords } from "@/server/browse/stemmed-words";
import { wordsRowsShow } from "@/server/browse/words-rows-show";

/**
 * Whether a page says the query's words was asked two ways, each with its own stemming: the
 * search's "this page answers the words" (route-words' plural rule) and "the rows show the words in
 * a column" (a suffix stem). Issue 23: one helper, one stem; "mugs" beside a "Mug" row was a word
 * the rows did not show.
 */
describe("one stemmed word set for the query's words and a page's", () => {
  const stems = (text: string, options?: { unnegated?: boolean }) => [
    ...stemmedWords(text, options).values(),
  ];

  it("plurals, -ed, -ing, -er and -ee forms of a word are one stem; short words keep theirs", () => {
    expect(stems("mugs Mug orders order tickets")).toEqual(["mug", "mug", "order", "order", "ticket"]);
    expect(new Set(stems("assigned assignee assigner"))).toEqual(new Set(["assign"]));
    expect(stems("shipped shipping bus")).toEqual(["shipp", "shipp", "bus"]);
  });

  it("maps each word as spelt (lower-case) to its stem; `_` splits, link targets are not read", () => {
    expect([...stemmedWords("owner_id [Tickets](helpdesk://tickets?status=open)")]).toEqual([
      ["owner", "owner"],
      ["id", "id"],
      ["tickets", "ticket"],
    ]);
  });

  it("a negating prefix stays unless asked off: 'unassigned' is not 'assigned' for a page's own words", () => {
    expect(stems("unassigned")).toEqual(["unassign"]);
    expect(stems("unassigned nonbinding", { unnegated: true })).toEqual(["assign", "bind"]);
  });

  it("Chinese runs are read as pairs of characters, as the search's index reads them", () => {
    expect(stems("我的优惠券")).toEqual(["我的", "的优", "优惠", "惠券"]);
  });

  it("the rows show a short plural the query used: 'mugs' beside a Mug row", () => {
    const table = "| id | name |\n| --- | --- |\n| `prod_mug` | Signpost Mug |";
    expect(wordsRowsShow("mugs", table)).toEqual(["mugs"]);
    expect(wordsRowsShow("unassigned kettles", "| assignee_id |\n| --- |\n| — |")).toEqual(["unassigned"]);
  });
});
