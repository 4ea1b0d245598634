/**
 * How an ask's words say which record it is about: by its kind's word, by pointing back at a
 * record said before ("give it to Sara"), or by describing one of its own ("the one that …").
 */
import { POINTING_WORDS } from "../../function-words";

const POINTING = new Set(POINTING_WORDS);

/** The word a record's kind is called by: the last word of its type's name ("case" for a SupportCase). */
export function kindWord(type: string): string | undefined {
  return type
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/\s+/)
    .pop();
}

/**
 * Whether words name a record of the kind after "on", "for" or "in" ("set it to pending on the tee
 * ticket as well", "do the same for the lamp order"): that record is the ask's, whatever its "it"
 * stands for (review 67: the tee ticket's change was read as the headphones ticket's, said done).
 */
export function namesRecordAfterPreposition(words: string, kind: string | undefined): boolean {
  if (!kind) return false;
  // At least one word of its own between "the" and the kind: "in the ticket", "on that ticket",
  // "on the same ticket", "for the customer's ticket" point back at the record named before
  // (review 67b: "…, and mark it urgent in the ticket" lost the assigned ticket).
  const phrase = new RegExp(
    `\\b(?:on|for|in)\\s+(?:the|my|our|your)\\s+((?:[\\p{L}\\p{N}'’-]+\\s+){1,4})${kind}s?\\b`,
    "iu",
  ).exec(words);
  if (!phrase) return false;
  const own = (phrase[1] ?? "").toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? [];
  return own.some((w) => !GENERIC_NAMING.has(w) && !/['’]s?$/.test(w));
}

/** Words that name no record of their own between "the" and its kind: "the same ticket". */
const GENERIC_NAMING = new Set([
  "same",
  "said",
  "current",
  "very",
  "above",
  "previous",
  "customer",
  "customers",
]);

/** Whether a word is the kind's word, one or several ("ticket", "tickets"). */
export function isKindWord(word: string, kind: string | undefined): boolean {
  return !!kind && (word === kind || word === `${kind}s`);
}

/**
 * Whether an ask's words point back at a record named before ("give it to Sara", "move that to
 * billing"). A relative pronoun describes its own noun ("cancel my order that is waiting for
 * payment"), no record named before: played, that order's cancel was offered on the order the
 * first ask changed.
 */
export function pointsBack(words: string, carrying = false): boolean {
  const tokens = words.toLowerCase().match(/\p{L}+/gu) ?? [];
  // Carrying a record into another ask, "that's" opens a relative clause too ("give the one
  // that's pending to Sara" describes a ticket; review 58b: it took the first ask's, and ran).
  // Deciding whether a change runs at once, it still holds it for a check (review 58).
  const next = (i: number) => tokens[i + 1] ?? "";
  const relative = (i: number) => RELATIVE_NEXT.has(next(i)) || (carrying && CONTRACTED.has(next(i)));
  return tokens.some((w, i) => POINTING.has(w) && !(RELATIVES.has(w) && i > 0 && relative(i)));
}

/**
 * Whether an ask describes a record of its own with a relative clause: "the one that …", "those
 * which …", "the case that …" (a determiner and its noun), whatever follows the pronoun; never
 * where a pointing word before it names the record ("give it to Sid, who is the one that …": the
 * clause is about Sid). Stop 58's note: "Make the tee ticket low priority and give the one that
 * customers complained about to Sid" carried the tee ticket into the assignment and ran it ("that
 * customers" read as pointing back, or as a message opening).
 */
export function describesOwnRecord(words: string, kind: string | undefined): boolean {
  const tokens = words.toLowerCase().match(/\p{L}+/gu) ?? [];
  const at = tokens.findIndex(
    (w, i) =>
      (RELATIVES.has(w) || w === "who") &&
      (HEADS.has(tokens[i - 1] ?? "") ||
        isKindWord(tokens[i - 1] ?? "", kind) ||
        DETERMINERS.has(tokens[i - 2] ?? "")),
  );
  return at > 0 && !tokens.slice(0, at - 1).some((w) => POINTING.has(w));
}

/**
 * "the one that/which/who …", "the ones that're …": a record described by a clause, not named.
 * The narrower reading, for holding a change that would run at once (points-at-nothing-said.ts):
 * describesOwnRecord also reads "the ticket that …", which says which ticket where no other ask's
 * record is carried, and so is no reason to hold a start whose words pick it.
 */
export const ONE_DESCRIBED = /\bones?\s+(?:that|which|who)\b/i;

/** Words a relative clause describes where no kind is named: "the one that …", "any which …". */
const HEADS = new Set(["one", "ones", "those", "any", "anything", "everything", "all"]);
/** Words that open a noun phrase picking a thing already there: "the", "my", "another". */
export const DETERMINER_WORDS: readonly string[] = [
  "the",
  "my",
  "our",
  "your",
  "his",
  "her",
  "their",
  "other",
  "another",
];
/** Words that open a noun a relative clause may describe ("the case that …", "my purchase which …"). */
const DETERMINERS = new Set([...DETERMINER_WORDS, "any", "every", "each"]);

/** "that's", "which're": the verb contracted onto the pronoun. */
const CONTRACTED = new Set(["s", "re"]);

/** Pointing words that also open a relative clause, after the noun it describes. */
const RELATIVES = new Set(["that", "which"]);
/** Words a relative clause opens with after its pronoun: a verb of being or having, or an adverb. */
export const RELATIVE_VERBS =
  "is are was were has have had hasn haven isn wasn didn did does doesn still never just already";
/**
 * The same, or the relative clause's own subject ("the order that I paid"). Not for where a
 * message begins: "add a note that we sent it" carries a message, so a subject after "that" does
 * not keep it from being cut there (MESSAGE_OPENS).
 */
const RELATIVE_NEXT = new Set(`${RELATIVE_VERBS} i we you they he she`.split(" "));
