import { describe, expect, it } from "vitest";
import { saysKindBare } from "@/server/gateway/operations/says-kind-bare";

/**
 * Issue 23: "… and set the ticket to pending" said "the ticket" of the record the sentence is
 * about, as "it" would. Only "the <kind>" said bare reads so: a word that describes which record
 * (before the kind or right after it), a plural or another kind leaves the ask's record unread.
 */
describe("'the <kind>' said bare points back at the record the sentence is about", () => {
  it("the kind alone, after 'the', whatever follows that is no description", () => {
    for (const head of [
      "set the ticket to pending",
      "close the ticket",
      "and give the ticket to the billing team",
      "mark the ticket, then",
    ])
      expect(saysKindBare(head, "ticket"), head).toBe(true);
  });

  it("a word that says which record keeps it unread, as before", () => {
    for (const head of [
      "close the blue ticket",
      "close the other ticket",
      "set the ticket about the lamp order to pending",
      "set the ticket for the kettle refund to pending",
      "close the ticket tkt_5",
      "close the ticket number 5",
      "close the ticket I opened yesterday",
      "close the ticket that is waiting",
      "close the tickets",
      "close a ticket",
      "cancel the order",
      // Review 52: descriptions no list of describing words held.
      "set the ticket Bella has to pending",
      "set the ticket below to pending",
      "set the ticket here to pending",
      "set the ticket mentioned earlier to pending",
      "set the ticket waiting on the customer to open",
      "close the ticket Adam raised",
      // Review 52b: the quote after "with" may say which ticket ("… with 'Invoice copy' as its
      // subject"), so the text an ask carries after "with" does not make it bare.
      "close the ticket with",
      "move the ticket Alice wrote yesterday to billing",
    ])
      expect(saysKindBare(head, "ticket"), head).toBe(false);
  });

  it("the kind is the started record's: another connector's word reads the same", () => {
    expect(saysKindBare("refund the order", "order")).toBe(true);
    expect(saysKindBare("refund the ticket", "order")).toBe(false);
    expect(saysKindBare("refund the ticket", undefined)).toBe(false);
  });
});
