import { describe, expect, it } from "vitest";
import { askSpans } from "@/server/gateway/operations/ask-spans";

const words = (intent: string, kind?: string) => askSpans(intent, kind).asks.map((a) => a.words);

/**
 * The asks of the user's words, each with the words it is started with: an ask said again on
 * another record with no verb of its own (issue 23: "…, and the tee ticket too") is an ask, with
 * the words of the ask it repeats said on its record.
 */
describe("the asks of words that say an ask again on another record", () => {
  it("each repeat takes the words of the last ask with a verb of its own", () => {
    expect(
      words(
        "The customer called. Assign the headphones ticket to Sara, the tee ticket too, and tkt_4 as well.",
      ),
    ).toEqual([
      "Assign the headphones ticket to Sara",
      "Assign the tee ticket to Sara",
      "Assign tkt_4 to Sara",
    ]);
    expect(words("Add a note to the headphones ticket: 'call the carrier', and the tee ticket too")).toEqual([
      "Add a note to the headphones ticket: 'call the carrier'",
      "Add a note to the tee ticket: 'call the carrier'",
    ]);
    // "One" takes the noun of the kind the caller knows.
    expect(words("Make the headphones ticket urgent and the tee one too", "ticket")).toEqual([
      "Make the headphones ticket urgent",
      "Make the tee ticket urgent",
    ]);
  });

  it("what follows both records is said of both where the first ask ends at its record", () => {
    expect(words("Assign the headphones ticket and the tee ticket to Sara")).toEqual([
      "Assign the headphones ticket to Sara",
      "Assign the tee ticket to Sara",
    ]);
    expect(
      words("Resolve the kettle refund ticket and the charged twice one: refund issued", "ticket"),
    ).toEqual([
      "Resolve the kettle refund ticket: refund issued",
      "Resolve the charged twice ticket: refund issued",
    ]);
  });

  it("a record named after a reading repeats no change", () => {
    expect(words("Assign the headphones ticket to Sara, find the tee ticket and the lamp one")).toEqual([
      "Assign the headphones ticket to Sara",
    ]);
  });
});
