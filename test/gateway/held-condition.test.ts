import { describe, expect, it } from "vitest";
import { conditionIn } from "@/server/gateway/operations/held-condition";

/**
 * Which words make a change conditional or take it back (reviews 54b and 54c), and which only
 * look like it: a courtesy, a question, a description of the past, the text the action carries.
 */
describe("conditionIn", () => {
  it.each([
    "Change tkt_2's priority to urgent if Sid agrees",
    "Change tkt_2's priority to urgent once Sid agrees",
    "Change tkt_2's priority to urgent only when Sid agrees",
    "Change tkt_2's priority to urgent as long as Sid agrees",
    "Change tkt_2's priority to urgent assuming Sid agrees",
    "When the customer calls back, change tkt_2's priority to urgent",
    "Cancel my unpaid kettle order in the event the price drops",
    "Cancel my unpaid kettle order as long as it hasn't shipped",
    "Change tkt_2's priority to urgent. Wait, no.",
    "Change tkt_2's priority to urgent. Cancel that.",
    "Change tkt_2's priority to urgent. Actually, don\u2019t.",
    "Set tkt_2 to pending. Don't.",
    "Set tkt_2 to pending, never mind",
    // Review 54d.
    "Change tkt_2's priority to urgent if the customer replied",
    "Change tkt_2's priority to urgent once it's confirmed",
    "Cancel my unpaid kettle order if the price went up",
    "Change tkt_2's priority to urgent once the customer pays",
    "Cancel my unpaid kettle order unless Sid says no",
    "Change tkt_2's priority to urgent if Sid and Sara agree",
    "Cancel my unpaid kettle order. No, don't.",
    "Change tkt_2's priority to urgent. On second thoughts, leave it.",
    "Change tkt_2's priority to urgent. Actually I changed my mind.",
    "Change tkt_2's priority to urgent. Actually, let's not.",
    "Change tkt_2's priority to urgent — no wait, leave it",
    "Change tkt_2's priority to urgent. Forget I said that.",
    "Change tkt_2's priority to urgent. Ignore that please.",
    "Change tkt_2's priority to urgent. Scratch that last one.",
    // Set AS's round: a bare "no" ran the change.
    "Change tkt_2's priority to urgent. Actually no.",
    "Change tkt_2's priority to urgent. No.",
    "Change tkt_2's priority to urgent, hmm, nope",
    // Review 55b.
    "Set tkt_2 to pending. Well no.",
    "Set tkt_2 to pending. So no.",
    "Set tkt_2 to pending. Nah.",
    "Set tkt_9 priority to low. No no.",
  ])("holds: %s", (words) => {
    expect(conditionIn(words)).not.toBeNull();
  });

  it.each([
    "Set tkt_2 to pending if you don't mind",
    "Set tkt_2 to pending if that's alright",
    "Close tkt_5 when you get a chance",
    "Cancel my unpaid order if any",
    "Refund it as soon as possible",
    "Cancel the unpaid order I placed when I was on holiday",
    "Set tkt_2 to pending until the customer replies",
    "Open an after-sales request for my kettle order",
    "Cancel the order after the lamp one",
    // Review 54d.
    "Please cancel it.",
    "Set tkt_2 to urgent, the customer can't wait, no more delays",
    "Set tkt_2 to pending, the customer asked us to hold off",
    "Set tkt_2 to urgent. No rush on the reply though.",
    "Actually, cancel that unpaid kettle order.",
    "No rush, set tkt_2 to pending",
  ])("runs: %s", (words) => {
    expect(conditionIn(words)).toBeNull();
  });

  it("text the action took is cut only whole, and a retraction inside it still holds", () => {
    expect(conditionIn("Set tkt_2's priority to low if the schedule allows", ["low"])).not.toBeNull();
    const note = "Add an internal note to tkt_2: customer called again. Actually, don't.";
    expect(conditionIn(note, ["customer called again. Actually, don't."])).not.toBeNull();
    // A bare "no" there is the message's own word (review 55b: a reply was held on it).
    const reply = "Reply to the customer on tkt_2: Is the parcel lost? No. It is at the depot.";
    expect(conditionIn(reply, ["Is the parcel lost? No. It is at the depot."])).toBeNull();
    // At the very end it takes the change back, carried or not (review 55c: the note was added).
    const end = "Add an internal note to tkt_2: customer called back. Actually no.";
    expect(conditionIn(end, ["customer called back. Actually no."])).not.toBeNull();
  });

  it("the text the action took is no condition", () => {
    const words = "Add an internal note to tkt_2: call the customer when they are back";
    expect(conditionIn(words)).not.toBeNull();
    expect(conditionIn(words, ["call the customer when they are back"])).toBeNull();
  });
});
