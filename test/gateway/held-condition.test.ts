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
  ])("runs: %s", (words) => {
    expect(conditionIn(words)).toBeNull();
  });

  it("the text the action took is no condition", () => {
    const words = "Add an internal note to tkt_2: call the customer when they are back";
    expect(conditionIn(words)).not.toBeNull();
    expect(conditionIn(words, ["call the customer when they are back"])).toBeNull();
  });
});
