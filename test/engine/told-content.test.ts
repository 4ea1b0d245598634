import { describe, expect, it } from "vitest";
import { toldContent, toldMessage } from "@/server/engine/told-content";

describe("what an ask to tell someone asks them to be told", () => {
  it("is what follows the 'that' that opens a clause, after a verb of telling and whom", () => {
    expect(
      toldContent("Tell the customer on the headphones ticket that a new tracking number is coming today."),
    ).toEqual({
      ask: "Tell the customer on the headphones ticket",
      content: "a new tracking number is coming today.",
    });
    expect(toldContent("please let the customer know on tkt_3 that it’s checked")?.content).toBe(
      "it’s checked",
    );
    expect(toldContent("Reply to the customer that we shipped a new one")?.ask).toBe("Reply to the customer");
  });

  it("a relative 'that' (a verb or 'is' after it) is no message; nor is any 'that' without a verb of telling", () => {
    expect(toldContent("tell the customer on the ticket that was escalated that we are on it")?.content).toBe(
      "we are on it",
    );
    expect(toldContent("tell the customer on the ticket that was escalated")).toBeUndefined();
    expect(toldContent("resolve the ticket that the customer opened")).toBeUndefined();
    expect(toldContent("add a note that the parcel is lost")).toBeUndefined();
  });

  it("is taken as the message only when it speaks to the person, on one line, in more than a word", () => {
    expect(toldMessage("Tell the customer on tkt_2 that a new tracking number is coming today.")).toBe(
      "A new tracking number is coming today.",
    );
    // Said of the person it goes to, it would reach them in the third person: theirs to word.
    expect(toldMessage("Tell the customer on tkt_3 that their refund was approved.")).toBeUndefined();
    expect(toldMessage("Tell the customer that it\nis done")).toBeUndefined();
    expect(toldMessage("Tell the customer that yes")).toBeUndefined();
  });

  it("ends where an order to the agent begins: told speech is declarative, an imperative is another ask", () => {
    expect(toldContent("tell the customer we've sent an L, and set it to pending.")).toEqual({
      ask: "tell the customer",
      content: "we've sent an L",
      otherAsk: "set it to pending.",
    });
    expect(
      toldContent("tell the customer that the L is on its way and then close the ticket")?.otherAsk,
    ).toBe("close the ticket");
    expect(toldContent("tell them that it shipped; also assign it to Bella")?.content).toBe("it shipped");
    // A clause with its own subject, or a verb in the past, is still what the customer is told.
    expect(toldContent("tell the customer that the parcel is lost and we will refund it")).toEqual({
      ask: "tell the customer",
      content: "the parcel is lost and we will refund it",
    });
    expect(
      toldContent("tell the customer that we packed the L and shipped it today")?.otherAsk,
    ).toBeUndefined();
    // Without "that", the message opens at the speaker's pronoun after whom, never mid-clause.
    expect(toldContent("tell the customer the parcel is lost and we will refund it")).toBeUndefined();
    expect(toldMessage("tell the customer we've sent an L, and set it to pending.")).toBe("We've sent an L.");
  });
});

describe("a message the user quotes", () => {
  it("is told whole: a comma and an order inside the quote cut nothing", () => {
    expect(toldContent("tell the customer that 'we sent it, and set it aside for you' and close it")).toEqual(
      {
        ask: "tell the customer",
        content: "'we sent it, and set it aside for you'",
        otherAsk: "close it",
      },
    );
    // A quote right after whom is the message too, told as written, inside its marks.
    expect(toldContent("tell the customer 'sent, and sorry' and then close it")?.content).toBe(
      "'sent, and sorry'",
    );
    expect(toldMessage("tell the customer on tkt_9 ‘we sent it, sorry for their wait’.")).toBe(
      "we sent it, sorry for their wait",
    );
  });
});
