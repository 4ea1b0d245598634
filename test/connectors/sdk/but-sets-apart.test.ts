import { describe, expect, it } from "vitest";
import { readWords } from "@/server/connectors/sdk/negated-words";

/**
 * "but" a few words after a word that takes a set whole sets apart, as right after "all": review
 * found "all my orders but the cancelled ones" opened the orders listing filtered to exactly the
 * cancelled ones. Where "but" opens a clause or turns to what is meant, nothing is denied.
 */
describe("readWords: a 'but' after a whole set", () => {
  const denied = (text: string) =>
    readWords(text)
      .filter((w) => w.denied)
      .map((w) => w.raw);

  it.each([
    ["all my orders but the cancelled ones", ["cancelled"]],
    ["every ticket but the closed ones", ["closed"]],
    ["everything in my cart but the mugs", ["mugs"]],
    ["each of my open tickets but the urgent ones", ["urgent"]],
    ["Everything came fine but the kettle", ["kettle"]],
    ["anything but home", ["home"]],
  ])("sets apart: %s", (text, expected) => {
    expect(denied(text)).toEqual(expected);
  });

  it.each([
    "all my orders but I only want the total",
    "show all orders but only the paid ones",
    "list all orders, but the cancelled ones first",
    "I like the mug but the lamp is broken",
    "all of the orders that I placed last year but then cancelled",
    // Review 54: a clause on either side, a verb after, an order word.
    "Everything came fine but the kettle from my delivered order is too loud, refund it",
    "Everything is handled but the charged twice ticket, make it urgent",
    "Buy everything in my cart but pay with my balance",
    "Buy everything in my cart but ship it express to my home",
    "Show all open tickets but the urgent ones first",
  ])("denies nothing: %s", (text) => {
    expect(denied(text)).toEqual([]);
  });
});
