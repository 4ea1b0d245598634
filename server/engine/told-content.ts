/**
 * What an ask to tell someone something asks them to be told: "tell the customer on the lamp
 * ticket that a new tracking number is coming today" asks to tell (a message to send), and what
 * follows its "that" is the message, not what to do. Played (issue 23): the message's "tracking
 * number" outranked the ask, and tracking an order tied with the comment the words asked for.
 *
 * Pure English grammar: a verb of telling opens the ask (after a polite opener), a few words name
 * whom, then "that" and a clause with its own subject. A "that" a verb or "is" follows is a
 * relative ("the ticket that was escalated"), never the message; the first one that opens a
 * clause is.
 */
import { maskQuotes, onlyQuoted, quoteMarks } from "./mask-quotes";
import { repeatedRecord } from "./repeated-ask";

export interface ToldContent {
  /** The ask, to its "that" (lower-case as given, or as written). */
  ask: string;
  /** The message, as written, from the word after "that" to where another ask begins (or the end). */
  content: string;
  /** What follows the message when another ask begins there (", and set it to pending"), as written. */
  otherAsk?: string;
}

/** Verbs (and verb phrases) that ask to tell a person something. */
const TELLING =
  /^(?:(?:please|kindly|just|now|can you|could you|would you)\s+)*(?:tell|inform|notify|remind|assure|let|reply\s+to|respond\s+to|write\s+(?:back\s+)?to|answer|email|e-mail|message)\b/i;

/** Words that open a clause with its own subject: after "that", they start the message. */
const SUBJECT =
  /^(?:a|an|the|we|i|you|your|our|my|it|it's|its|this|these|those|there|there's|he|she|they|his|her|their|someone|nobody|nothing|everything|no|all|every|each|one|two|three|\d[\w.,]*)$/i;

/** How many words may name whom (and on what) before the message's "that". */
const WHOM_REACH = 12;

/**
 * Without "that", a message opens where a speaker's own pronoun follows whom ("tell the customer
 * we've sent an L"): the ones a person named as whom ("the customer", "them") never are.
 */
const SPEAKER = /^(?:we|we've|we're|we'll|we'd|i|i've|i'm|i'll|i'd|our|you|you're|you'll|you've|your)$/i;

/** Words that make what follows the verb of telling a clause of its own, not whom. */
const CLAUSAL = /^(?:and|but|or|so|because|is|are|was|were|has|have|had|will|would|can|could)$/i;

export function toldContent(written: string): ToldContent | undefined {
  // What the user quotes is told whole: no "that", comma or "and" inside it cuts the message.
  const { masked: text, unmask } = maskQuotes(written);
  const told = toldIn(text);
  if (!told) return undefined;
  const { ask, content, otherAsk } = told;
  return {
    ask: unmask(ask),
    content: unmask(content),
    ...(otherAsk !== undefined ? { otherAsk: unmask(otherAsk) } : {}),
  };
}

/** The told content of text whose quotes are masked. */
function toldIn(text: string): ToldContent | undefined {
  const opened = TELLING.exec(text.trimStart());
  if (!opened) return undefined;
  const lead = text.length - text.trimStart().length + opened[0].length;
  const rest = text.slice(lead);
  const words = [...rest.matchAll(/\S+/g)].slice(0, WHOM_REACH + 1);
  const bare = (w: string) => w.replace(/[’]/g, "'").replace(/[,;:.!?]+$/, "");
  const message = (askEnd: number, from: number) => ({
    ask: text.slice(0, lead + askEnd).trim(),
    ...toldUntilOtherAsk(rest.slice(from), text.slice(0, lead + askEnd)),
  });
  // "that" and a clause with its own subject first; a speaker's pronoun right after whom else.
  for (const [i, m] of words.entries()) {
    if (m[0].toLowerCase() !== "that") continue;
    const next = words[i + 1]?.[0];
    if (next && (SUBJECT.test(bare(next)) || onlyQuoted(bare(next))))
      return message(m.index ?? 0, (m.index ?? 0) + m[0].length);
  }
  for (const [i, m] of words.entries()) {
    // Whom is a few words with no clause of their own: "the customer … is lost and we …" is not.
    if (CLAUSAL.test(bare(m[0])) || /[,;:.!?]$/.test(m[0])) return undefined;
    const next = words[i + 1];
    // The user's own quote after whom is the message too ("tell the customer 'sent, sorry'").
    if (next && (SPEAKER.test(bare(next[0])) || onlyQuoted(bare(next[0]))))
      return message(next.index ?? 0, next.index ?? 0);
  }
  return undefined;
}

/**
 * Where a message told in reported speech ends: at a clause that is an order to the agent. Told
 * speech is declarative ("we've sent an L", "the parcel is lost and we will refund it": a clause
 * with its own subject is the message); an order to the one being told turns into "to …" ("tell
 * them to send the M back"). So a bare imperative after a clause break — a verb, no subject, then
 * its object ("…, and set it to pending", "and then close the ticket", "; also assign it to
 * Bella") — is addressed to the agent: another ask, never words the customer reads. A verb in the
 * past ("and shipped it today") states; one word alone ("and escalate") is too little to tell.
 * Quotes in `told` are masked by the caller (mask-quotes.ts): a quote's own commas cut nothing.
 */
export function toldUntilOtherAsk(told: string, ask?: string): { content: string; otherAsk?: string } {
  for (const m of told.matchAll(BREAK)) {
    const at = m.index ?? 0;
    const clause = told.slice(at + m[0].length).replace(JOINERS, "");
    // The ask said again on another record ("resolve X: refund issued, and the charged twice one
    // as well"): where `ask` is given, that clause is an ask too, not the text (repeated-ask.ts).
    const next = told.slice(at + m[0].length).split(/[,;.](?:\s|$)|\s+and\s+/)[0] ?? "";
    if (ask && repeatedRecord(next, ask, m[0])) {
      const content = told.slice(0, at).trim();
      if (content) return { content, otherAsk: clause.trim() };
    }
    if (!opensOrder(clause)) continue;
    const content = told.slice(0, at).trim();
    if (content) return { content, otherAsk: clause.trim() };
  }
  return { content: told.trim() };
}

/**
 * Whether a clause opens with an order to the agent: a verb, no subject, then its object ("set
 * it to pending", "and then close the ticket", "assign abc_4 to Kim"). A first word that is no
 * verb of an order (a subject, a modal, a past form that states: "shipped it today") opens none.
 */
export function opensOrder(clause: string): boolean {
  const [verb = "", object = ""] = clause
    .replace(JOINERS, "")
    .split(/\s+/, 2)
    .map((w) =>
      w
        .toLowerCase()
        .replace(/[’]/g, "'")
        .replace(/[,;:.!?]+$/, ""),
    );
  return !NOT_A_VERB.test(verb) && !CONTRACTED_SUBJECT.test(verb) && !/ed$/.test(verb) && OBJECT.test(object);
}

/**
 * A subject with its verb contracted ("they're", "he's", "that'll"): a statement, no order (set
 * AX: "— they're the wrong colour" was offered as a delivery address change).
 */
const CONTRACTED_SUBJECT = /^(?:i|you|we|they|he|she|it|that|there|here|who|what)'(?:s|re|ve|ll|d|m)$/;

/** A clause break: a mark, or a space before a word that joins clauses. */
const BREAK = /[,;.]\s+|\s+(?=(?:and|then|also)\s)/gi;
/** The words that join an ask to the one before it ("and then", "also", "please"). */
const JOINERS = /^\s*(?:(?:and|then|also|please|afterwards|after that)\s+)*/i;

/** First words that are no verb of an order: subjects (contracted ones below), modals, adverbs, and past forms that state. */
const NOT_A_VERB =
  /^(?:a|an|the|we|i|you|your|our|my|he|she|they|their|his|her|it|its|this|that|these|those|there|will|would|can|could|should|may|might|must|shall|is|are|was|were|be|been|has|have|had|hopefully|also|then|and|so|sorry|thanks|thank|not|no|sent|gave|took|got|found|told|left|kept|brought|bought|paid|made|said|did|went|came|lost|sold)$|^$/;

/** What an order's verb acts on: the record pointed at, a named one, or a person. */
const OBJECT = /^(?:it|them|this|that|these|those|the|its|him|her|me|us|[a-z][a-z0-9]*_[a-z0-9]+)$/;

/** Words by which a message would speak of the person it is sent to: theirs to word, not ours. */
const THIRD_PERSON = /\b(?:they|them|their|theirs|themselves|he|him|his|himself|she|her|hers|herself)\b/i;

/**
 * The message an ask to tell someone gives ("tell the customer on tkt_2 that a new tracking
 * number is coming today": "A new tracking number is coming today."), as written, its first
 * letter made a sentence's capital (and a full stop where another ask was cut off) and nothing
 * else changed. Not when it speaks of the person it
 * goes to ("that their refund was approved" would reach them as "Their refund…"), spans lines,
 * or is a single word: the user words it then.
 */
export function toldMessage(request: string): string | undefined {
  const told = toldContent(request);
  const text = told?.content;
  // A quote the user wrote is their own words, exactly: its inside, as it stands.
  const quoted = text && quoteInside(text);
  if (quoted) return quoted;
  if (!text || /\n/.test(text) || text.split(/\s+/).length < 2 || THIRD_PERSON.test(text)) return undefined;
  // Cut before another ask, the sentence the comma left open ends with a full stop.
  const end = told.otherAsk && /[\p{L}\p{N})]$/u.test(text) ? "." : "";
  return `${text[0]?.toUpperCase() ?? ""}${text.slice(1)}${end}`;
}

/** The inside of a text that is one quote (a sentence's mark after it aside), on one line; else undefined. */
function quoteInside(text: string): string | undefined {
  const { masked, unmask } = maskQuotes(text);
  const [mark, ...more] = quoteMarks(masked);
  if (!mark || more.length || !/^[.!?]*$/.test(masked.trim().slice(1)) || !masked.trim().startsWith(mark))
    return undefined;
  const inside = unmask(mark).slice(1, -1).trim();
  return inside && !/\n/.test(inside) ? inside : undefined;
}
