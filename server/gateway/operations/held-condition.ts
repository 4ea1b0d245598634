import type { OutcomeBase } from "../../connectors/sdk/outcome";
import { maskQuotes } from "../../engine/mask-quotes";

/**
 * Said after the message of a change held because its words put a condition on it or take it
 * back: the agent asks the user, and confirms only on their word.
 */
export function heldForCondition(phrase: string): string {
  return ` — not run yet: the words make it depend on something ("${phrase}"), so ask the user whether it holds, then confirm_action (or cancel_action)`;
}

/** Who or what a condition is about, right after its "when", "once" or "after". */
const SUBJECT = "(?:the|it|he|she|they|we|i|you|my|our|his|her|their|this|that|someone|somebody)";

/**
 * Words that make a change depend on something not known now, or take it back: "if Sid agrees",
 * "unless he objects", "once the refund clears", "when the customer calls back", "after I talk
 * to Sid", "… Actually, don't", "never mind". A courtesy ("if possible", "if you can") is none.
 */
const CONDITION = new RegExp(
  [
    "\\b(?:if|unless|provided that|in case|as soon as)\\b(?!\\s+(?:possible|you can|you could|that's (?:ok|okay|fine|all right)|it's (?:ok|okay|fine)|needed|necessary|so)\\b)[^.,;!?]{0,60}",
    `(?<=\\S\\s+)\\b(?:when|once|after)\\s+${SUBJECT}\\b[^.,;!?]{0,60}`,
    "\\b(?:ignore (?:that|this|it)|never ?mind|scratch that|just kidding|or maybe not|on second thought|forget (?:it|that|about it)|don'?t do (?:it|that)|actually,? (?:don'?t|no|wait))\\b",
  ].join("|"),
);

/**
 * The words (outside any text they quote) that make a change conditional or take it back, or
 * null. Review 54b: "Mark tkt_3 as open when the refund clears", "Change tkt_2's priority to
 * urgent. Actually, don't." and "Put my unpaid kettle order on my card if the price drops" each
 * ran a change that needs nobody's approval at once. Such a change now waits for the agent's
 * confirm; a change a person approves is shown to them as it is.
 */
export function conditionIn(intent: string | undefined): string | null {
  if (!intent) return null;
  const { masked } = maskQuotes(intent.toLowerCase());
  const found = CONDITION.exec(masked)?.[0];
  return found ? found.trim().slice(0, 80) : null;
}

/** The outcome of a change that would run at once, held where its words make it conditional; null otherwise. */
export function heldOnCondition<T extends OutcomeBase>(intent: string | undefined, out: T): T | null {
  const condition = conditionIn(intent);
  return condition ? { ...out, message: `${out.message}${heldForCondition(condition)}` } : null;
}
