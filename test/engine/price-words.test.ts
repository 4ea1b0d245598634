import { describe, expect, it } from "vitest";
import { rowOf, wordTokens } from "../../server/engine/choice-words";
import { pricedInWords } from "../../server/engine/price-words";

const rows = [
  rowOf("p_lamp", { product_id: "p_lamp", name: "Desk Lamp", unit_price: 3200 }),
  rowOf("p_mug", { product_id: "p_mug", name: "Mug", unit_price: 1800 }),
  rowOf("p_tee_s", { product_id: "p_tee_s", name: "Tee (S)", unit_price: 2500 }),
  rowOf("p_tee_m", { product_id: "p_tee_m", name: "Tee (M)", unit_price: 2500 }),
  rowOf("p_cup", { product_id: "p_cup", name: "Cup", unit_price: 900, possible: "sold out" }),
];
const priced = (part: string) => pricedInWords(rows, part, wordTokens(part));

describe("a thing named by its price", () => {
  it("the cheapest or dearest of what can be taken; among the things the other words name", () => {
    expect(priced("one of the cheapest products")).toMatchObject({
      kind: "one",
      choice: { value: "p_mug" },
      why: "the cheapest of 4 available",
    });
    expect(priced("the most expensive thing")).toMatchObject({ kind: "one", choice: { value: "p_lamp" } });
    expect(priced("the priciest tee")?.kind).toBe("tie");
  });

  it("two at that price are a tie for the user; words with no price end are not read here", () => {
    const tie = priced("the cheapest tee");
    expect(tie?.kind === "tie" && tie.choices.map((c) => c.value)).toEqual(["p_tee_s", "p_tee_m"]);
    expect(priced("a mug")).toBeUndefined();
    // The words narrow before stock does: the sold-out cup is asked about, never the mug instead.
    expect(priced("the cheapest cup")).toMatchObject({ kind: "tie", choices: [{ value: "p_cup" }] });
    // A price turned down names nothing.
    expect(priced("not the cheapest one")).toBeUndefined();
    expect(pricedInWords([rowOf("x", { name: "X" })], "the cheapest", ["cheapest"])).toBeUndefined();
  });
});

describe("a price end that qualifies something else", () => {
  it("'the cheapest way to ship', 'the cheapest shipping' price no row; a thing, a row's word or no noun does", () => {
    for (const part of [
      "what's the cheapest way to ship my things",
      "the cheapest shipping",
      "cheapest delivery",
    ])
      expect(priced(part), part).toBeUndefined();
    expect(priced("the cheapest available mug")).toMatchObject({ kind: "one", choice: { value: "p_mug" } });
    expect(priced("the cheapest item")).toMatchObject({ kind: "one", choice: { value: "p_mug" } });
    expect(priced("buy the cheapest")).toMatchObject({ kind: "one", choice: { value: "p_mug" } });
  });
});

describe("a count of things named by their price", () => {
  const more = [...rows, rowOf("p_pen", { product_id: "p_pen", name: "Pen", unit_price: 500 })];
  const many = (part: string) => pricedInWords(more, part, wordTokens(part));

  it("'the two cheapest' are two different rows, cheapest first; 'two of the cheapest' is not read as a count here", () => {
    expect(many("the two cheapest products")).toMatchObject({
      kind: "some",
      choices: [{ value: "p_pen" }, { value: "p_mug" }],
      why: "the 2 cheapest of 5 available",
    });
    expect(many("the cheapest two products")).toMatchObject({
      kind: "some",
      choices: [{ value: "p_pen" }, { value: "p_mug" }],
    });
    expect(many("the 3 most expensive things")).toMatchObject({
      kind: "some",
      choices: [{ value: "p_lamp" }, {}, {}],
    });
    expect(many("two of the cheapest products")).toMatchObject({ kind: "one", choice: { value: "p_pen" } });
  });

  it("a price shared across the cut, or fewer rows than asked, is the user's to break", () => {
    const tie = many("the three cheapest");
    expect(tie?.kind === "tie" && tie.choices.map((c) => c.value)).toEqual(["p_tee_s", "p_tee_m"]);
    expect(many("the four cheapest")).toMatchObject({ kind: "some" });
    expect(many("the six cheapest")?.kind).toBe("tie");
  });
});

describe("a thing named by its place in the price order", () => {
  const more = [...rows, rowOf("p_pen", { product_id: "p_pen", name: "Pen", unit_price: 500 })];
  const ranked = (part: string) => pricedInWords(more, part, wordTokens(part));

  it("'the second cheapest', 'the 2nd most expensive': that place, said with the pick", () => {
    expect(ranked("the second cheapest product")).toMatchObject({
      kind: "one",
      choice: { value: "p_mug" },
      why: "the 2nd cheapest of 5 available",
    });
    expect(ranked("the 4th priciest thing")).toMatchObject({ kind: "one", choice: { value: "p_mug" } });
    // Two at that place's price are the user's to break.
    const tie = ranked("the third cheapest");
    expect(tie?.kind === "tie" && tie.choices.map((c) => c.value)).toEqual(["p_tee_s", "p_tee_m"]);
    expect(ranked("the second most expensive")?.kind).toBe("tie");
    // Past the end of what can be taken: the rows, to ask about.
    expect(ranked("the ninth cheapest")?.kind).toBe("tie");
  });

  it("a count before the price word of the one thing the words name is how many of it", () => {
    // "2 cheapest mugs" when the words name one mug: two of it, never "fits 1, ask which".
    expect(pricedInWords(rows, "2 cheapest mugs", wordTokens("2 cheapest mugs"))).toMatchObject({
      kind: "one",
      choice: { value: "p_mug" },
    });
  });
});
