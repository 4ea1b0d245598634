import type { OutcomeBase } from "../../connectors/sdk/outcome";
import { maskQuotes } from "../../engine/mask-quotes";

/**
 * Said after the message of a change held because its words put a condition on it or take it
 * back: the agent asks the user, and confirms only on their word.
 */
export function heldForCondition(phrase: string): string {
  return ` — not run yet: the words make it depend on something ("${phrase}"), so ask the user whether it holds, then confirm_action (or cancel_action)`;
}

/** What opens a condition whatever follows: "if Sid agrees", "unless he says no", "as long as it hasn't shipped". */
const STRONG =
  "if|unless|provided(?: that)?|in case|in the event(?: that)?|as long as|only when|assuming|supposing";

/**
 * Openers that also describe ("the order I placed when I was away", "the one after the lamp
 * order"): a condition only with a verb after them, not in the past.
 */
const WEAK = "as soon as|whenever|when|once|after";

/**
 * Courtesies and set phrases that open like a condition and are none: "if possible", "when you
 * get a chance", "as soon as you can", "if any"; a fallback ("if you can't, set it to pending")
 * conditions the ask after it, never the one before.
 */
const COURTESY =
  /^(?:if (?:not|you can'?t|you cannot|it can'?t be done|that fails|it fails|possible|you can|you could|you don'?t mind|needed|necessary|any|so|it is possible|it'?s possible|that'?s (?:ok|okay|fine|alright|all right)|it'?s (?:ok|okay|fine|alright|all right))|when (?:you (?:can|get a chance|have a (?:sec|second|moment|minute)|are able|'re able)|possible)|as soon as (?:possible|you can|you are able|you'?re able))(?:\s*[.,;!?]|$)/;

/**
 * Words that put the change off or make it a maybe, each a condition the user settles: a reminder
 * asked for ("remind me to …", "don't forget to …"), a later time ("tomorrow", "next week",
 * "later today"), a hedge opening a clause ("maybe …", "perhaps …"). Review 57b (and 56): "Remind
 * me to make the headphones ticket urgent" and "Make it urgent tomorrow" ran at once. Past times
 * describe ("the order I placed yesterday") and are left alone.
 */
const PUT_OFF =
  /\b(?:remind me(?: to| that)?|don'?t forget to|do not forget to|remember to)\b[^.,;!?]{0,60}|\b(?:tomorrow|tonight|next (?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|later (?:today|on|this (?:week|month|afternoon|evening))|in (?:an hour|a few (?:hours|days)|\d+ (?:hours|days)))\b|(?:^|[.,;!?]\s*|\band\s+)(?:maybe|perhaps)\b[^.,;!?]{0,60}/;

/** A question's "when" ("when will it arrive?"): no condition. */
const ASKS_WHEN = /^when (?:will|would|can|could|is|are|was|were|did|do|does|should|shall)\b/;

/** Words before an "-ed" word that make it no past tense ("hasn't shipped", "is closed"). */
const PERFECT = new Set(
  "has have hasn't haven't had been be is are isn't aren't not get gets got".split(" "),
);

/** The phrase tells what happened ("the order I placed when I was away"): a description, no condition. */
function saysPast(phrase: string): boolean {
  const words = phrase.split(/\s+/);
  return words.some(
    (w, i) =>
      /^(?:was|were|did)$/.test(w) ||
      (/^[a-z]{3,}ed$/.test(w) &&
        i > 0 &&
        !PERFECT.has(words[i - 1] ?? "") &&
        !/'(?:s|re|ve)$/.test(words[i - 1] ?? "")),
  );
}

/** A subject and its verb follow a condition's opener ("if Sid agrees", "once it is paid", "after I talk to Sid"). */
const HAS_VERB =
  /^\S+(?:\s+\S+)*?\s+(?:(?:i|we|you|they|he|she|it)\s+\S+|\S*\b(?:is|are|am|be|has|have|can|will|does|do|gets|get)\b|\S*n't\b|[a-z]{2,}[^s]s\b)/;

/**
 * A sentence (or dash-set aside) that takes the change back: "Actually, don't.", "No, wait.",
 * "Never mind.", "Scratch that last one.", "On second thoughts, …", "I changed my mind", "Let's
 * not". Only at a sentence's start: "the customer asked us to hold off" and "can't wait, no more
 * delays" take nothing back.
 */
const TAKEN_BACK =
  /(?:^|[.!?;,]\s*|\s[—–-]+\s*)(?:(?:actually|sorry|oh|ok|okay|hmm|well|so)[,.!]?\s+)?(?:no[,.!]?\s+)?(?:don'?t\b|do not\b|wait\b|never ?-?mind|nvm\b|scratch (?:that|this)|forget (?:it|that|about it|i said that)|ignore (?:that|this|it|my last message)|disregard (?:that|this)|cancel that\s*[.!]|let'?s not|on second thoughts?|i(?:'ve)? changed my mind|changed my mind|hold off|just kidding|or maybe not)/;

/**
 * A sentence that is only "no" ("Actually no.", "Nah.", "No no"): taken back too, but only outside
 * the text the action carries ("Is the parcel lost? No. It is at the depot" is a reply's own
 * words: review 55b found it held).
 */
const BARE_NO =
  /(?:^|[.!?;,]\s*|\s[—–-]+\s*)(?:(?:actually|sorry|oh|ok|okay|hmm|well|so|wait)[,.!]?\s+)?(?:no|nope|nah)(?:[,.!]?\s+(?:no|nope|nah))*(?=\s*(?:[.!?]|$))/;
/** The same sentence as the words' last. */
const BARE_NO_AT_END = new RegExp(`${BARE_NO.source}(?=[\\s.!?]*$)`);

/**
 * The words (outside any text the action took from them, or quotes) that make a change
 * conditional or take it back, or null. Review 54b: "Mark tkt_3 as open when the refund clears",
 * "Change tkt_2's priority to urgent. Actually, don't." and "Put my unpaid kettle order on my
 * card if the price drops" each ran a change that needs nobody's approval at once. Review 54c:
 * a note's own text ("call the customer when they are back"), a courtesy ("if you don't mind")
 * and a description ("the order I placed when I was on holiday") are no condition.
 */
export function conditionIn(intent: string | undefined, taken: readonly string[] = []): string | null {
  if (!intent) return null;
  const whole = intent.toLowerCase().replace(/[‘’]/g, "'");
  // The text the action took, cut out whole words at a time ("low" is no part of "allows").
  let text = whole;
  for (const t of taken) {
    const said = t.toLowerCase().replace(/[‘’]/g, "'").trim();
    if (said.length < 3) continue;
    const at = (from: number): number => {
      const i = text.indexOf(said, from);
      if (i < 0) return -1;
      const edge = (c: string | undefined) => !c || !/[\p{L}\p{N}]/u.test(c);
      return edge(text[i - 1]) && edge(text[i + said.length]) ? i : at(i + 1);
    };
    for (let i = at(0); i >= 0; i = at(i + 1))
      text = `${text.slice(0, i)}${" ".repeat(said.length)}${text.slice(i + said.length)}`;
  }
  // A retraction counts wherever it stands, in the text the action took too.
  const back = TAKEN_BACK.exec(maskQuotes(whole).masked)?.[0];
  if (back)
    return back
      .replace(/^[.!?;,\s—–-]+/, "")
      .trim()
      .slice(0, 80);
  const { masked } = maskQuotes(text);
  // At the very end it takes the change back even inside the text it carries (review 55c: "Add
  // an internal note to tkt_2: customer called back. Actually no." added the note); in the middle
  // of that text it is the text's own word.
  const last = BARE_NO_AT_END.exec(maskQuotes(whole).masked)?.[0];
  const no = last ?? BARE_NO.exec(masked)?.[0];
  if (no)
    return no
      .replace(/^[.!?;,\s—–-]+/, "")
      .trim()
      .slice(0, 80);
  // Only in the first ask: a later one put off ("…, and tomorrow give it to Sara") is another
  // ask's, offered and never run (other-asks.ts), while the first is asked now.
  const firstAsk = masked.split(/[.;!?]\s|,?\s+(?:and|then)\s+/)[0] ?? masked;
  const off = PUT_OFF.exec(firstAsk)?.[0];
  if (off)
    return off
      .replace(/^[.,;!?\s]+|^and\s+/, "")
      .trim()
      .slice(0, 80);
  for (const m of masked.matchAll(new RegExp(`\\b(?:${STRONG}|${WEAK})\\b(?!-)[^.,;!?]{0,60}`, "g"))) {
    const phrase = m[0].trim();
    if (COURTESY.test(phrase) || ASKS_WHEN.test(phrase)) continue;
    const weak = new RegExp(`^(?:${WEAK})\\b`).test(phrase);
    // "after" before a noun, "when" before what happened: descriptions, no condition.
    if (weak && (saysPast(phrase) || !HAS_VERB.test(phrase))) continue;
    return phrase.slice(0, 80);
  }
  return null;
}

/** The outcome of a change that would run at once, held where its words make it conditional; null otherwise. */
export function heldOnCondition<T extends OutcomeBase & Record<string, unknown>>(
  intent: string | undefined,
  out: T,
): T | null {
  const taken = Object.values((out.from_words ?? {}) as Record<string, unknown>).flatMap((v) =>
    typeof v === "string" ? [v.replace(/^"|"$/g, "").replace(/" \(.*\)$/, "")] : [],
  );
  const condition = conditionIn(intent, taken);
  return condition ? { ...out, message: `${out.message}${heldForCondition(condition)}` } : null;
}
