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
export interface ToldContent {
  /** The ask, to its "that" (lower-case as given, or as written). */
  ask: string;
  /** The message, as written, from the word after "that" to the end of the text. */
  content: string;
}

/** Verbs (and verb phrases) that ask to tell a person something. */
const TELLING =
  /^(?:(?:please|kindly|just|now|can you|could you|would you)\s+)*(?:tell|inform|notify|remind|assure|let|reply\s+to|respond\s+to|write\s+(?:back\s+)?to|answer|email|e-mail|message)\b/i;

/** Words that open a clause with its own subject: after "that", they start the message. */
const SUBJECT =
  /^(?:a|an|the|we|i|you|your|our|my|it|it's|its|this|these|those|there|there's|he|she|they|his|her|their|someone|nobody|nothing|everything|no|all|every|each|one|two|three|\d[\w.,]*)$/i;

/** How many words may name whom (and on what) before the message's "that". */
const WHOM_REACH = 12;

export function toldContent(text: string): ToldContent | undefined {
  const opened = TELLING.exec(text.trimStart());
  if (!opened) return undefined;
  const lead = text.length - text.trimStart().length + opened[0].length;
  const rest = text.slice(lead);
  let words = 0;
  for (const m of rest.matchAll(/\S+/g)) {
    if (++words > WHOM_REACH + 1) return undefined;
    if (m[0].toLowerCase() !== "that") continue;
    const after = rest.slice((m.index ?? 0) + m[0].length);
    const next = /^\s+(\S+)/.exec(after)?.[1]?.replace(/[’]/g, "'");
    if (!next || !SUBJECT.test(next.replace(/[,;:.!?]+$/, ""))) continue;
    const content = after.trim();
    return { ask: text.slice(0, lead + (m.index ?? 0)).trim(), content };
  }
  return undefined;
}

/** Words by which a message would speak of the person it is sent to: theirs to word, not ours. */
const THIRD_PERSON = /\b(?:they|them|their|theirs|themselves|he|him|his|himself|she|her|hers|herself)\b/i;

/**
 * The message an ask to tell someone gives ("tell the customer on tkt_2 that a new tracking
 * number is coming today": "A new tracking number is coming today."), as written, its first
 * letter made a sentence's capital and nothing else changed. Not when it speaks of the person it
 * goes to ("that their refund was approved" would reach them as "Their refund…"), spans lines,
 * or is a single word: the user words it then.
 */
export function toldMessage(request: string): string | undefined {
  const told = toldContent(request)?.content;
  if (!told || /\n/.test(told) || told.split(/\s+/).length < 2 || THIRD_PERSON.test(told)) return undefined;
  return `${told[0]?.toUpperCase() ?? ""}${told.slice(1)}`;
}
