import { describe, expect, it } from "vitest";
import { freeTextInWords } from "@/server/engine/choice-words";
import { queryClauses } from "@/server/engine/query-clauses";
import { repeatAsk, repeatedRecord } from "@/server/engine/repeated-ask";
import { toldMessage } from "@/server/engine/told-content";

/**
 * Issue 23: "Assign the headphones ticket to Sara, and the tee ticket too" — a clause with no verb
 * of its own that names another record says the ask before it again. It opened with "the", as a
 * scene does, so no ask was read in it: one of two changes was made and the flow said finished.
 */
describe("an ask said again on another record, with no verb of its own", () => {
  const said = (clause: string, ask: string, before = "and", kind?: string) => {
    const record = repeatedRecord(clause, ask, before, kind);
    return record && repeatAsk(ask, record, kind);
  };

  it("is the ask's words on the record the clause names", () => {
    expect(said("the tee ticket too", "Assign the headphones ticket to Sara")).toBe(
      "Assign the tee ticket to Sara",
    );
    expect(said("same for the late delivery ticket", "Make the headphones ticket urgent", ", ")).toBe(
      "Make the late delivery ticket urgent",
    );
    expect(said("tkt_4 too", "Give tkt_2 to Sid")).toBe("Give tkt_4 to Sid");
    expect(said("ticket tkt_4 as well", "Resolve ticket tkt_3: refund issued")).toBe(
      "Resolve ticket tkt_4: refund issued",
    );
    // "One" takes the noun the ask named its record by; the text the ask carries stays.
    expect(said("the charged twice one as well", "Resolve the kettle refund ticket: refund issued")).toBe(
      "Resolve the charged twice ticket: refund issued",
    );
    expect(said("also the kettle one", "Cancel my lamp order")).toBe("Cancel the kettle order");
    expect(said("the tee one too", "Make the headphones ticket urgent", "and", "ticket")).toBe(
      "Make the tee ticket urgent",
    );
  });

  it("words of its own after its record take the place of the ask's there", () => {
    expect(said("the tee ticket to Sid", "Assign the headphones ticket to Sara")).toBe(
      "Assign the tee ticket to Sid",
    );
    expect(said("the tee ticket low", "Make the headphones ticket urgent")).toBe("Make the tee ticket low");
  });

  it("is no repeat where the clause states something, names no record, or only stands beside the ask's", () => {
    expect(
      repeatedRecord("the tee ticket is fine", "Make the headphones ticket urgent", "and"),
    ).toBeUndefined();
    expect(repeatedRecord("the customer", "Assign the headphones ticket to Sara", "and")).toBeUndefined();
    // Apposition: "my order, the lamp one" is the same record, said again (no "and", no "too").
    expect(repeatedRecord("the lamp one", "Cancel my order", ", ")).toBeUndefined();
    expect(
      repeatedRecord("the headphones ticket too", "Assign the headphones ticket to Sara"),
    ).toBeUndefined();
    expect(
      repeatedRecord("the tee ticket arrived broken", "Assign the headphones ticket to Sara", "and"),
    ).toBeUndefined();
    // Another kind of thing than the ask's record is no other record of it.
    expect(repeatedRecord("the shipping too", "Refund my order", "and")).toBeUndefined();
    expect(repeatedRecord("ord_2 too", "Give tkt_2 to Sid", "and")).toBeUndefined();
    // Named by "it", the ask's record is of the kind the caller knows, never another phrase of it.
    expect(said("the tee ticket too", "Give it to the billing team", "and", "ticket")).toBe(
      "Give the tee ticket to the billing team",
    );
  });

  it("words that pick no record by themselves are said as unclear", () => {
    expect(repeatedRecord("the other one too", "Assign the headphones ticket to Sara", "and")?.unclear).toBe(
      true,
    );
    expect(repeatedRecord("that one too", "Make the headphones ticket urgent", "and")?.unclear).toBe(true);
    expect(repeatedRecord("the tee one too", "Make the headphones ticket urgent", "and")?.unclear).toBe(
      false,
    );
  });

  it("is an ask among the clauses, never the text an ask before it carries", () => {
    expect(queryClauses("assign the headphones ticket to sara, and the tee ticket too.")).toEqual([
      { text: "assign the headphones ticket to sara", role: "request" },
      { text: "the tee ticket too", role: "situation", repeats: true },
    ]);
    expect(
      queryClauses("resolve the kettle refund ticket: refund issued, and the charged twice one as well"),
    ).toEqual([
      { text: "resolve the kettle refund ticket", role: "request" },
      { text: "refund issued", role: "situation", detail: true },
      { text: "the charged twice one as well", role: "situation", repeats: true },
    ]);
    expect(
      freeTextInWords(
        "resolution",
        "Resolve the kettle refund ticket: refund issued, and the charged twice one as well",
        true,
      ),
    ).toBe("refund issued");
    expect(toldMessage("Tell the customer on tkt_2 that a new one is on its way, and tkt_4 too")).toBe(
      "A new one is on its way.",
    );
    // A record said before the ask that points back at it is that ask's (review 49), no repeat.
    expect(
      queryClauses(
        "set the headphones ticket to pending, and the wrong size tee ticket, give it to sara",
      ).some((c) => c.repeats),
    ).toBe(false);
  });
});
