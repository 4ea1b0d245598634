import { type ReadWord, readWords } from "../connectors/sdk/negated-words";
import { askedAfterName, CLAUSE_MARK } from "./asked-after-name";
import { type ChoiceRow, wordTokens } from "./choice-words";
import { isPastForm, opensPredicate } from "./predicate-start";

/** After the record's name these start what to do ("… to urgent", "… because it broke"), not what it is. */
export const WHAT_TO_DO = new Set(
  "to for into onto as because since so but instead than then until unless".split(" "),
);

/**
 * Pronouns that open a clause of their own after the record's name ("… kettle order — it leaks",
 * "…, they never came"): what it says is what happened, no name of the record (set AU asked
 * which order for "leak").
 */
const SUBJECTS = new Set(["it", "they", "he", "she", "i", "we", "you"]);

/**
 * Words that point at a record rather than tell what happened to it: "it's the lamp one", "it's
 * Dana's pending one", "I mean my sister's" name it (review: read as what happened, a name no
 * record says went unasked and a change ran on another record).
 */
const POINTING = /^(?:the|this|that|these|those|my|our|your|his|her|their|one|ones|mean|meant)$|['’]s$/;

/** Whether the clause starting at `i` opens with a pronoun and never points at a record. */
function toldHappened(text: string, words: ReadWord[], i: number): boolean {
  const first = words[i];
  if (!first || !SUBJECTS.has(first.raw.toLowerCase().replace(/['’].*$/, ""))) return false;
  for (let j = i + 1; j < words.length; j++) {
    const word = words[j] as ReadWord;
    const prev = words[j - 1] as ReadWord;
    if (CLAUSE_MARK.test(text.slice(prev.at + prev.raw.length, word.at))) break;
    if (POINTING.test(word.raw.toLowerCase())) return false;
  }
  return true;
}

/** Verbs that ask for something done to a thing named right after them ("have my order sent …"). */
const CAUSATIVE = new Set(["have", "get", "want", "need"]);
const DETERMINER = new Set(["my", "the", "our", "this", "that", "your", "their", "his", "her"]);
/** Words after a past form that say where to, so the past form is the change asked. */
const DESTINATION = new Set(["to", "into", "back", "over"]);

/**
 * Whether the words ask for something done to the record ("Have my order that's waiting for
 * payment delivered to my home instead", "get the ticket moved to billing"): a causative verb, a
 * determiner, and the record's name within the next few words, nothing that says what to do
 * between ("want my money back for the order …" is no such ask of the order). Set BV: both
 * players' "delivered to my home" was read as the order being delivered, and all eight orders
 * were listed for the one waiting for payment.
 */
function asksForDone(words: ReadWord[], noun: string): boolean {
  const lower = words.map((w) => w.raw.toLowerCase());
  const verb = lower.findIndex((w, i) => CAUSATIVE.has(w) && DETERMINER.has(lower[i + 1] ?? ""));
  if (verb < 0) return false;
  for (let j = verb + 2; j < Math.min(lower.length, verb + 6); j++) {
    if (WHAT_TO_DO.has(lower[j] ?? "")) return false;
    if (wordTokens(words[j]?.raw ?? "")[0] === noun) return true;
  }
  return false;
}

/** Words before a request's verb that say nothing of what to do ("please change …"). */
const OPENING_FILLERS = new Set(["please", "now", "just", "kindly", "so", "ok", "okay"]);

/** One word (or declared phrase) of the words that may describe the record. */
export interface Describing {
  token: string;
  denied: boolean;
  /** In what the clause says happened to the record ("… order stopped working"): no name of it. */
  predicate?: true;
  /** The verb the request opens with: what to do, no name of the record. */
  verb?: true;
}

/** The several-word phrases the rows' states go by ("waiting payment"), as tokens. */
export function statePhrases(rows: ChoiceRow[]): string[][] {
  const all = new Set(rows.flatMap((r) => [...(r.stateWords ?? [])]));
  return [...all].map((p) => p.split(" ")).filter((p) => p.length > 1);
}

/**
 * The request's word tokens that may describe the record: every one before its name, and after it
 * those up to the first word that says what to do, less what a question asks of it
 * (asked-after-name.ts); each marked when the request denies it ("not shipped"). The record's
 * name itself is never denied. Without the name, up to what to do. A state's declared phrase
 * (`phrases`: "waiting for payment") is one entry, read whole before its "for" could end the
 * description. After the name, a verb form opens what happened to it (predicate-start.ts): its
 * words to the clause's end are marked, described by but never naming the record; so are those of a
 * later clause opened by a pronoun that tells what happened ("— it leaks").
 */
export function describingSequence(text: string, noun: string, phrases: string[][] = []): Describing[] {
  const out: Describing[] = [];
  const words = readWords(text);
  const named = words.some((w) => wordTokens(w.raw)[0] === noun);
  const asked = askedAfterName(text, words, noun);
  const causative = asksForDone(words, noun);
  let after = false;
  let predicate = false;
  // The first word past an opener ("please", "just"): where a request's verb stands.
  const opening = words.findIndex((w) => !OPENING_FILLERS.has(w.raw.toLowerCase()));
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as ReadWord;
    const prev = words[i - 1];
    if (prev && CLAUSE_MARK.test(text.slice(prev.at + prev.raw.length, word.at)))
      predicate = after && toldHappened(text, words, i);
    if (after && !asked.has(i) && opensPredicate(word.raw)) predicate = true;
    const mark = predicate ? { predicate: true as const } : {};
    const phrase = word.negation || asked.has(i) ? undefined : phraseAt(text, words, i, phrases);
    if (phrase) {
      out.push({ token: phrase.tokens.join(" "), denied: word.denied, ...mark });
      i = phrase.end - 1;
      continue;
    }
    // Round 28: "swap my tee for a large one" asked which order ("large" is no order's word).
    // "… back to open" says what to do too (set AP: "back" fit only the ticket whose text says
    // "my money back"); "the back office ticket" keeps its word.
    const backTo = word.raw.toLowerCase() === "back" && words[i + 1]?.raw.toLowerCase() === "to";
    if ((after || (!named && out.length > 0)) && (WHAT_TO_DO.has(word.raw.toLowerCase()) || backTo)) break;
    // "Have my order … delivered to my home": the past form before "to" is what to do, not what it is.
    if (after && causative && isPastForm(word.raw) && DESTINATION.has(words[i + 1]?.raw.toLowerCase() ?? ""))
      break;
    if (word.negation || asked.has(i)) continue;
    const [token] = wordTokens(word.raw);
    if (!token) continue;
    // The verb the request opens with, right before a determiner ("Change the wrong size tee
    // ticket to pending"), is what to do, never a word of the record's name: set DH's "change"
    // (another ticket's subject word) left the one ticket the other words fit untaken. Kept in
    // its place, marked: what comes after it is read by where it stands.
    if (i === opening && DETERMINER.has(words[i + 1]?.raw.toLowerCase() ?? "")) {
      out.push({ token, denied: false, verb: true });
      continue;
    }
    out.push({ token, denied: word.denied && token !== noun, ...mark });
    if (token === noun) after = true;
  }
  return out;
}

/**
 * The declared phrase whose tokens the words from `start` say one after another, words with no
 * token ("for", "on") between them, in one clause; with the index after its last word.
 */
function phraseAt(
  text: string,
  words: ReadWord[],
  start: number,
  phrases: string[][],
): { tokens: string[]; end: number } | undefined {
  for (const tokens of phrases) {
    let j = start;
    let k = 0;
    while (k < tokens.length && j < words.length) {
      const word = words[j] as ReadWord;
      const prev = words[j - 1];
      if (j > start && prev && CLAUSE_MARK.test(text.slice(prev.at + prev.raw.length, word.at))) break;
      const own = wordTokens(word.raw);
      if (!own.length && j > start) {
        j++;
        continue;
      }
      if (own.length !== 1 || own[0] !== tokens[k]) break;
      k++;
      j++;
    }
    if (k === tokens.length) return { tokens, end: j };
  }
  return undefined;
}
