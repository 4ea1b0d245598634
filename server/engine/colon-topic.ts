/**
 * Whether the words before a colon are the topic of the ask after it, not an ask of their own:
 * "jo's billing problem: set the case to pending" names (or describes) which record the
 * order after the colon is about. Review: the words before the colon were read as the ask and the
 * order after it as their detail; their best match ("problem": resolving) ran on the record the
 * sentence had started with. Pure English grammar, no business words: after the colon an order
 * to the agent opens (a verb and its object: told-content.ts), and before it none does: no verb
 * before its object, nor a verb before a record's id ("resolve ticket tkt_2: …" asks). Where the
 * words after the colon are no order ("resolve the ticket: parcel found", "add a note: '…'"),
 * they are the text the ask before carries, as before.
 */
import { onlyQuoted } from "./mask-quotes";
import { opensOrder } from "./told-content";

/** A record id as written: a prefix, an underscore and the rest ("abc_2"). */
const ID = /^[a-z][a-z0-9]*_[a-z0-9]+$/i;
/** A possessive or a contraction ("jo's", "it's"): a noun phrase or a statement, never an order's verb; "let's" asks. */
const POSSESSIVE = /^(?!let['’]s$)[\p{L}\p{N}_]+['’]s$/u;

/** Whether `before` (one clause, lower-case) is the topic of the order `after` its colon opens. */
export function colonTopic(before: string, after: string): boolean {
  return opensOrder(after) && namesOnly(before);
}

/**
 * Whether words before a colon (one clause, lower-case) only name or describe a thing, no order:
 * no verb before its object, a new thing ("add a note"), or a record's id.
 */
export function namesOnly(before: string): boolean {
  if (opensOrder(before)) return false;
  const words = before
    .replace(POLITE, "")
    .split(/\s+/)
    .map((w) => w.replace(/[,;:.!?]+$/, ""));
  const first = words[0] ?? "";
  if (ID.test(first) || POSSESSIVE.test(first)) return true;
  // Words that name a record's id after their first ask about it, whatever word opens them
  // ("comment on abc_2: …", "note for abc_9: …"): review 52c found such asks read as topics.
  if (words.slice(1).some((w) => ID.test(w) || /\d/.test(w))) return false;
  if (!opensOrder(`${first} it`)) return true;
  // A verb before a new thing ("add a note: …") or a record's id ("resolve ticket abc_2: …") asks.
  return !DETERMINER.test(words[1] ?? "") && !words.slice(1).some((w) => ID.test(w));
}

/** Words before an order's verb that only join it or ask politely ("and then", "please"). */
const POLITE = /^\s*(?:(?:and|then|also|please|kindly|just|now)\s+)*/;
/** Words that open what a verb makes or takes besides those an order's object opens with. */
const DETERMINER =
  /^(?:a|an|some|any|every|each|all|both|no|one|two|three|\d+|everything|something|anything|nothing)$/;

/**
 * An ask's words (as written) split at a colon the words before only name a record at ("lamp
 * order problem: mark as pending"): those are its topic, the words after it ask. The clause
 * splitter tells such a topic where a verb and its object follow the colon; where they do not,
 * the words before it were read as the ask (a review: their "problem" ran a resolve on the
 * started record). Words that open a quote or a message before the colon stay the ask carrying it.
 */
export function topicBeforeColon(words: string): { words: string; topic?: string } {
  const colon = /:\s/.exec(words);
  if (!colon) return { words };
  const before = words.slice(0, colon.index).trim();
  const rest = words.slice(colon.index + 1).trim();
  const carries = /\s["'“‘«]|\s(?:that|saying|to say)\s/i.test(` ${before} `) || onlyQuoted(rest.slice(0, 1));
  if (!rest || carries || before.split(/\s+/).length < 2 || !namesOnly(before.toLowerCase()))
    return { words };
  return { words: rest, topic: before };
}
