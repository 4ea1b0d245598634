import type { AnyCapability, FieldWords } from "../connectors/sdk/define-capability";
import { FUNCTION_WORDS } from "../function-words";
import { straightApostrophes } from "./straight-apostrophes";
import { toldContent } from "./told-content";

/** The declared words of `field` (NodeDefinition.saidBy), or undefined where none are declared. */
export function fieldWordsOf(capability: AnyCapability, field: string): FieldWords | undefined {
  for (const node of capability.nodes) {
    const said = node.saidBy?.[field];
    if (said) return said;
  }
  return undefined;
}

/** Every declared consequential field of the capability, in node order. */
export function saidByFields(capability: AnyCapability): Array<[string, FieldWords]> {
  return capability.nodes.flatMap((n) => Object.entries(n.saidBy ?? {}));
}

/**
 * The value of a consequential field the user's words ask for by one of its declared phrases
 * ("add an internal note" → internal true; "reply to the customer" → false). `several` when they
 * lean to more than one value (a phrase of one, a hint of another: "an internal note for the
 * customer"): no value is taken, and a change nobody approves waits for the user's word
 * (defaultsHold). Undefined when no phrase is asked: the field's own name may still be
 * (flag-words.ts), else the default holds the change the same way.
 *
 * A security review found a note posted to the customer at once on "add a note to the customer's
 * ticket": a loose phrase matched inside other words, and a value taken from words is never held.
 * So a phrase asks only (1) in the ask, never in the message it carries (quoted text, what follows
 * its colon or "saying"), (2) as whole words that end there: "customer's", "customer success" are
 * other nouns, (3) not after a refusal ("don’t", "nothing", "not", curly apostrophes read as
 * straight ones), (4) as an ask, not a statement ("we reply to the customer" only leans). Where in
 * doubt, no value is taken: the safe side is asking, never the value that shows data.
 */
export function saidByWords(
  words: FieldWords,
  request: string,
  given: string[] = [],
): { value: string | boolean } | { several: true } | undefined {
  const tokens = askTokens(request, given);
  const asked = new Set<string | boolean>();
  const leaning = new Set<string | boolean>();
  for (const { value, words: phrases, hints = [] } of words.values) {
    for (const phrase of phrases) {
      const said = phraseIn(tokens, phrase);
      if (said === "asked") asked.add(value);
      else if (said) leaning.add(value);
    }
    for (const hint of hints) if (phraseIn(tokens, hint)) leaning.add(value);
  }
  const [value, ...more] = [...asked];
  const others = [...leaning].filter((v) => v !== value);
  if (more.length || (value !== undefined && others.length)) return { several: true };
  if (value === undefined) return leaning.size > 1 ? { several: true } : undefined;
  return { value };
}

/** The entry's line for a field: the words naming each value, what happens otherwise, and the default. */
export function saidByLine(words: FieldWords, fallback: unknown): string {
  // A value with hints only is never taken from words: it is not named here (it read "undefined").
  const named = words.values
    .filter((v) => v.words.length > 0)
    .map((v) => `"${v.words[0]}" = ${String(v.value)}`)
    .join(", ");
  // A field with no default says what happens without the words, no "default undefined".
  return fallback === undefined
    ? `from words (${named}); else ${words.defaultMeans}`
    : `from words (${named}), else asked; default ${String(fallback)} = ${words.defaultMeans}`;
}

/**
 * The ask's words, lower-cased, as tokens (words keep their apostrophe: "customer's" is not
 * "customer"; marks are tokens of their own): without the text a field already holds, quoted
 * text, and the message after the ask's colon, "saying …", an ask's "that" (told-content.ts) or an
 * opening quote left unclosed.
 */
function askTokens(request: string, given: string[]): string[] {
  let text = request;
  for (const value of given)
    if (value.length >= 8) text = text.replace(new RegExp(escapeRegExp(value), "gi"), " ");
  text = straightApostrophes(text).replace(QUOTED, "$1 ");
  const cut = BODY_START.exec(text);
  // After a colon, an ask to tell ("On tkt_9: tell the customer we've sent an L") is still the
  // ask: only its message is the body.
  const toldAfter = cut?.[0].startsWith(":") ? toldContent(text.slice(cut.index + 1).trim())?.ask : undefined;
  if (cut) text = `${text.slice(0, cut.index)}${toldAfter ? ` ${toldAfter}` : ""}`;
  // "Tell the customer … that …": what follows is the message, which asks nothing of who sees it.
  text = toldContent(text)?.ask ?? text;
  return text.toLowerCase().match(TOKEN) ?? [];
}

/**
 * How a phrase stands in the ask: "asked" (said as an ask), "said" (stated by a subject: "we reply
 * to the customer" leans to its value, asks nothing), or null: not said as whole words ending
 * there, or refused.
 */
function phraseIn(tokens: string[], phrase: string): "asked" | "said" | null {
  const needle = phrase.toLowerCase().match(TOKEN) ?? [];
  let best: "asked" | "said" | null = null;
  for (let at = 0; at + needle.length <= tokens.length; at++) {
    if (!needle.length || needle.some((t, i) => tokens[at + i] !== t)) continue;
    if (!endsThere(tokens[at + needle.length])) continue;
    if (refused(tokens, at)) continue;
    const before = tokens[at - 1] ?? "";
    if (!STATING.has(before) && !/'(?:ll|d)$/.test(before) && !handedOver(tokens, at)) return "asked";
    best = "said";
  }
  return best;
}

/** The phrase ends where the next token is a mark, an id, a function word, or nothing. */
function endsThere(next: string | undefined): boolean {
  if (next === undefined || !/[\p{L}\p{N}]/u.test(next)) return true;
  return /[\p{N}_]/u.test(next) || FOLLOWING.has(next);
}

/** A refusal within a few words before, in the same phrase (a mark ends it: "Not a reply, a note"). */
function refused(tokens: string[], at: number): boolean {
  for (let i = at - 1; i >= Math.max(0, at - REFUSAL_REACH); i--) {
    const t = tokens[i] as string;
    if (!/[\p{L}\p{N}]/u.test(t)) return false;
    if (REFUSALS.has(t)) return true;
  }
  return false;
}

/**
 * Whether the phrase is what someone else is asked to do: "ask Bella to tell the customer", "get
 * Sid to reply to …", "have Bella reply to …" hand the reply over to a teammate, asking nothing of
 * this comment (review 66d: each posted the note to the customer at once). "I want you to reply"
 * still asks it.
 */
function handedOver(tokens: string[], at: number): boolean {
  const [b1, b2, b3] = [tokens[at - 1], tokens[at - 2], tokens[at - 3]];
  const someone = (w: string | undefined) => !!w && /^\p{L}+$/u.test(w) && !SELF.has(w);
  return (b1 === "to" && someone(b2) && HANDING.has(b3 ?? "")) || (someone(b1) && CAUSING.has(b2 ?? ""));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Words and marks; a word keeps an apostrophe inside it ("customer's", "it's"). */
const TOKEN = /[\p{L}\p{N}_]+(?:'[\p{L}]+)*|[^\s\p{L}\p{N}_]/gu;
/** Text in quotes, opened after a space, colon or bracket (never a "don't" apostrophe). */
const QUOTED = /(^|[\s:(])(["'“‘«])[^"'”’»]*["'”’»](?=$|[\s.,;:!?)])/g;
/** Where the message a comment carries starts: its colon, "saying …", an unclosed opening quote. */
const BODY_START =
  /:(?=\s|$)|\s(?:saying|that says|which says|to say|with the text|with the words|reading)\b|(?:^|\s)["“‘«']/i;
// "Rather than tell the customer", "instead of a reply to the customer" refuse it (review 66d).
const REFUSALS = new Set([
  "not",
  "no",
  "without",
  "never",
  "nor",
  "nothing",
  "nobody",
  "none",
  "neither",
  "rather",
  "instead",
]);
/** Verbs that hand an act to someone ("ask Bella to …"), and that make someone do it ("have Bella …"). */
const HANDING = new Set(["ask", "asks", "get", "gets", "remind", "tell", "want", "need", "instruct"]);
const CAUSING = new Set(["have", "has", "let", "make"]);
/** Who is no one else: the user and the agent themselves ("I want you to reply …" asks it). */
const SELF = new Set(["you", "me", "us", "yourself", "myself"]);
const REFUSAL_REACH = 3;
/** Who states rather than asks, right before the phrase: "we reply …", "they will tell …". */
const STATING = new Set(
  "i we they he she it will would should could can shall must might may did does has have had was were is are".split(
    " ",
  ),
);
/** Words that may follow a phrase that ends there: function words and prepositions, never a noun. */
const FOLLOWING = new Set([
  ...FUNCTION_WORDS,
  ..."the a an on in at of for to with by via and or then once when after before today now again back directly immediately asap publicly privately know".split(
    " ",
  ),
]);
