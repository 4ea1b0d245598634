/**
 * Splits what a person wrote into clauses and tells the ones that ask for something from the
 * ones that describe the situation: "my parcel is late | and I want my money back". The
 * request names the capability; the situation only gives its context, so capability search
 * counts its words less. Pure grammar (English and Chinese function words), no business words.
 */

import { POINTING_WORDS } from "../function-words";
import { countOfWord } from "../number-words";
import { colonTopic } from "./colon-topic";
import { maskQuotes, onlyQuoted } from "./mask-quotes";
import { repeatedRecord } from "./repeated-ask";
import { opensOrder, toldContent, toldUntilOtherAsk } from "./told-content";

export type ClauseRole = "request" | "situation";

export interface QueryClause {
  text: string;
  role: ClauseRole;
  /**
   * The text the ask before it carries: the message an ask to tell gives, or text the user quoted
   * for it (a note's body). That ask's words, not a scene.
   */
  told?: true;
  /**
   * What follows the one colon after an ask: its detail ("resolve the headphones ticket: parcel
   * found"), the words that ask carries (a resolution), read as situation.
   */
  detail?: true;
  /**
   * It says the ask before it again on another record, with no verb of its own ("…, and the tee
   * ticket too", "same for the late delivery ticket"; repeated-ask.ts): an ask, whatever its role.
   */
  repeats?: true;
  /**
   * Words before a colon that say which record the order after it is about ("jo's billing
   * problem: set the case to pending"; colon-topic.ts): a situation, never an ask of its own.
   */
  topic?: true;
}

// Punctuation and the conjunctions that join clauses ("…late and I want…", "…but nothing…"). A
// dash joins clauses too: "Return the mugs from my kettle order — they arrived chipped" read as
// one request, and its "arrived" made tracking the parcel the best match (round 25). "As" joins
// clauses only before one's subject ("refund me as it never came"); "mark the ticket as pending"
// is one ask, its "as" saying what to mark it (played: cut there, "pending" was an ask alone).
const CLAUSE_BREAK =
  /[,.;:!?，。；：！？、\n]+|\s+[-–—]+\s+|[–—]+|\s+(?:and|but|so|because|since|then|though|although)\s+|\s+as\s+(?=(?:i|we|you|he|she|they|it|my|our|your|his|her|their|its|the|this|that|these|those|there)\s)|但是|所以|因为|然后/;

// Words that make a clause a request: wanting, asking, or a question.
const EN_REQUEST =
  /\b(?:want|wanna|need|needs|like|rather|please|pls|let|help|can you|could you|would you|will you|i'd|must|should)\b/;
const EN_QUESTION =
  /^(?:where|when|what|what's|whats|how|why|which|who|has|have|did|does|do|is|are|was|will|can|could)\b/;
// Chinese asking (wanting, please, help, can it be…) and questioning (吗, where, what, when, how…).
const ZH_ASK = /要|想|请|帮|麻烦|申请|希望|能否|能不能|可以|给我/;
const ZH_QUESTION = /吗|哪|什么|何时|怎么|多久|是否|？/;

// A clause that opens with a subject (a pronoun or determiner) or states what is ("is late",
// "was broken") describes; one that opens with a verb ("refund me", "hand it to Sid") asks.
const EN_SUBJECT =
  /^(?:i|we|you|he|she|they|it|my|our|your|his|her|their|its|the|a|an|this|that|these|those|there|nothing|something|everything|someone|nobody)\b/;
const EN_STATE =
  /\b(?:is|are|was|were|been|isn't|aren't|wasn't|weren't|hasn't|haven't|didn't|never|still|already|says|said|told)\b/;
// Chinese states: aspect and negation (了 已 没 不), degree (很 太), "always" (一直) describe.
const ZH_STATE = /了|已|没|不|很|太|一直|还是/;

// A modal before "have" says what should have been, no ask ("it cost more than it should have",
// "it must have been lost"): set CI's reason after a dash was offered as a second request.
const PAST_MODAL = /\b(?:should|must|could|would)(?:n't|n’t| not)?\s+have\b/g;

// A clause opening with a subordinator sets the scene ("before the package ships, …").
const EN_SUBORDINATE = /^(?:before|after|if|once|until|while|unless|whenever|since|because)\b/;
// A clause opening with a preposition names what the asks are about ("On the tee ticket: tell
// the customer …, and set it to pending"): a topic, no ask of its own.
// Only a preposition before a record's phrase ("on the …", "about my …", "regarding tkt_4"): "re-assign"
// and "on second thought, refund it" ask (a review: "re-assign tkt_1 …" was read as a topic).
const EN_TOPIC =
  /^(?:on|about|regarding|concerning)\s+(?:the|my|our|your|this|that|[a-z][a-z0-9]*_[a-z0-9]+)\b/;
// A relative clause describes a noun of its clause ("pay my order | that is waiting for payment"):
// its "is" states nothing about the clause, which still asks when it opens with a verb. So does a
// free relative ("pay | whatever I still owe"): played, its "still" made the ask a situation.
const EN_RELATIVE = /\b(?:that|which|who|whose|where|whatever|whichever)\b.*$/;

// "I don't need them", "we no longer want it": a want the speaker denies of themselves is why
// they ask, never an ask (issue 23: "…, I don't need them" was offered as a cancel of the
// delivered order). What is left of the clause is read as any other: "I don't want it, please
// take it back" still asks by its "please".
const EN_UNWANTED =
  /^(?:i|we)\s+(?:really\s+|just\s+|simply\s+)?(?:do\s+not|don['’]?t|did\s+not|didn['’]?t|no\s+longer|never)\s+(?:really\s+)?(?:want|need|like)\b/;

// The same in Chinese, said of oneself ("我不需要了", "我们不想要了"); a bare "不要…" tells someone
// not to do something, which asks.
const ZH_UNWANTED = /^我们?(?:真的|已经|再也|也)?(?:不再|不|没)(?:太)?(?:需要|想要|要|想)/;

function roleOf(clause: string): ClauseRole {
  if (/[\u3400-\u9fff]/.test(clause) && !/[a-z]{3}/.test(clause)) {
    const unwanted = ZH_UNWANTED.exec(clause);
    if (unwanted && !ZH_ASK.test(clause.slice(unwanted[0].length))) return "situation";
    if (ZH_ASK.test(clause) || ZH_QUESTION.test(clause)) return "request";
    return ZH_STATE.test(clause) ? "situation" : "request";
  }
  if (EN_SUBORDINATE.test(clause)) return "situation";
  const unwanted = EN_UNWANTED.exec(clause);
  if (unwanted && !EN_REQUEST.test(clause.slice(unwanted[0].length))) return "situation";
  if (EN_REQUEST.test(clause.replace(PAST_MODAL, "")) || EN_QUESTION.test(clause)) return "request";
  if (EN_TOPIC.test(clause)) return "situation";
  // A count opens a noun phrase, the next of a list the ask before it takes ("order one backpack |
  // and one tee in size s"): played (set AD), it was offered as an exchange of a tee.
  if (countOfWord(/^[\p{L}\p{N}]+/u.exec(clause)?.[0] ?? "")) return "situation";
  if (EN_POSSESSIVE.test(clause)) return "situation";
  // A verb and its object open an order, whatever state the object's words then say ("give the
  // case jo is handling to kim", "set the case still unassigned to pending"): in a review
  // their "is" and "still" made each a situation, and the ask went unsaid.
  if (opensOrder(clause) && !EN_NOT_ORDER_VERB.test(clause)) return "request";
  return EN_SUBJECT.test(clause) || EN_STATE.test(clause.replace(EN_RELATIVE, "")) ? "situation" : "request";
}

// A possessive opens a noun phrase, never an order ("jo's billing problem"): the record it
// names, no ask (a review: its "problem" was read as resolving); "let's" asks.
const EN_POSSESSIVE = /^(?!let['’]s\b)[\p{L}\p{N}_]+['’]s\b/u;
// A first word that says how things stand, not what to do: an adverb ("apparently the parcel is
// lost"; not "apply", "supply") or a verb said of someone ("seems the …", "says the …").
const EN_NOT_ORDER_VERB = /^(?:\p{L}+(?<!pp)ly|\p{L}+[^s\P{L}]s)\b/u;

/**
 * The clauses of a (lower-cased) query, each with its role; a lone clause is a request. What
 * follows the one colon after an ask is its detail ("resolve the parcel ticket: refunded it"),
 * read as situation: its "refunded" made the after-sales request the best match. Text the user
 * quotes is one piece, never cut (mask-quotes.ts), and stays with the ask it follows.
 */
export function queryClauses(lowerText: string): QueryClause[] {
  const { masked, unmask } = maskQuotes(lowerText);
  return withRepeats(masked, clausesRead(masked)).map((c) => ({ ...c, text: unmask(c.text) }));
}

/**
 * The clauses, each that says the ask before it again on another record marked (repeated-ask.ts):
 * "assign the headphones ticket to sara, | and the tee ticket too". What joins it to the clause
 * before ("and", cut off by the split) is read from the text between them.
 */
function withRepeats(masked: string, clauses: QueryClause[]): QueryClause[] {
  let ask: string | undefined;
  let from = 0;
  return clauses.map((c, i) => {
    const at = masked.indexOf(c.text, from);
    const before = at >= 0 ? masked.slice(from, at) : "";
    if (at >= 0) from = at + c.text.length;
    const marked = /^\s*[?？]/.test(masked.slice(from));
    if (c.told || c.detail || c.topic) return c;
    const repeated = ask ? repeatedRecord(c.text, ask, before) : undefined;
    // "…, and the wrong size tee ticket, give it to sara": the record the next ask points back
    // at, said before it (review 49), no repeat of the ask before.
    const next = clauses[i + 1];
    const topic = !repeated?.marked && next?.role === "request" && pointsBackIn(next.text);
    if (repeated && !topic) return { ...c, repeats: true as const };
    // A question asks for nothing done: nothing to say again ("is the headphones ticket assigned
    // to sara? and the tee ticket too" ran an assignment of the tee ticket; review 51).
    if (c.role === "request") ask = isQuestion(c.text, marked) ? undefined : c.text;
    return c;
  });
}

/**
 * Whether the words only ask to know ("is the headphones ticket assigned to sara?"): a question,
 * and no clause asking for something done. Such words ask for no change (review 51: the question
 * reassigned the ticket at once).
 */
export function onlyAsksToKnow(lowerText: string): boolean {
  // "Should I …?" asks the agent's advice, not for the change (review 52c: "should I set the
  // ticket to pending?" set it), though it stays an ask another change's words may offer.
  const clauses = questionsOf(maskQuotes(lowerText).masked).map((c) => ({
    ...c,
    question: c.question || (c.marked && SEEKS_ADVICE.test(c.text)),
  }));
  return clauses.some((c) => c.question) && clauses.every((c) => c.question || c.role !== "request");
}

/**
 * Whether the words only ask a question that wants an answer, not a yes or no ("what's the
 * cheapest shipping for my cart, and how long would it take?"): what there is to know, never a
 * change to make: a start by them is a preview (start-action.ts). Set AS: sent as a checkout
 * form's words, it opened a checkout the model then advanced and cancelled. "Can I return it?"
 * is no such question: it may ask for the change.
 */
export function onlyAsksWhat(lowerText: string): boolean {
  if (!onlyAsksToKnow(lowerText)) return false;
  const questions = questionClauses(lowerText);
  return questions.length > 0 && questions.every((q) => WH_QUESTION.test(q));
}

/**
 * A question word that asks ("what shipping options are there", "how expensive is it", "which …"):
 * never a suggestion ("how about you refund me", "what if you move it", "why not cancel it", "why
 * don't you …") nor a "when" that sets a time ("when my headphones arrive send them back"):
 * reviews 55b and 55c.
 */
const WH_QUESTION =
  /^(?:(?:so|and|but|then)\s+)?(?!(?:how|what)\s+about\b|what\s+if\b|how\s+come\b|why\s+(?:not|don['’]?t|doesn['’]?t|won['’]?t|can['’]?t|wouldn['’]?t|shouldn['’]?t)\b)(?:what|whats|which|whose|who|where|how|why|when(?=['’]s\b|\s+(?:is|are|was|were|do|does|did|can|could|would|will|should|has|have|had)\b))(?:\b|['’])/;

/** A question asking whether to do something ("should we …?"), never an order to do it. */
const SEEKS_ADVICE = /^(?:(?:so|and|but|then)\s+)?(?:should|shall|must)\s+(?:i|we)\b/;

/** Whether a clause's words point back at a record said before ("give it to sara"). */
function pointsBackIn(text: string): boolean {
  return (text.match(/\p{L}+/gu) ?? []).some((w) => POINTING_WORDS.includes(w));
}

/** The clauses of a query whose quotes are masked. */
function clausesRead(lowerText: string): QueryClause[] {
  const colons = [...lowerText.matchAll(/:(?=\s)/g)];
  const at = colons.length === 1 ? (colons[0]?.index ?? -1) : -1;
  // Three words at least make an ask ("resolve ticket tkt_2"); "small problem:" is a topic.
  if (at > 0 && lowerText.slice(0, at).trim().split(/\s+/).length >= 3) {
    const after = lowerText.slice(at + 1);
    const ask = clausesOf(lowerText.slice(0, at));
    // Only after an ask: "it arrived broken: send a new one" asks after its colon. Nor where the
    // words right before the colon are the topic of an order after it: that order is an ask.
    if (ask.some((c) => c.role === "request") && !colonTopic(ask.at(-1)?.text ?? "", after)) {
      // A quote after the colon is the text the ask carries ("add a note: '…'"), as a message
      // told is; an order to the agent after it is another ask ("…', and set it to pending").
      if (onlyQuoted(after.trimStart().slice(0, 1))) {
        const { content, otherAsk } = toldUntilOtherAsk(after, lowerText.slice(0, at));
        return withMessages([
          ...ask,
          { text: content, role: "situation", told: true },
          ...(otherAsk ? clausesOf(otherAsk) : []),
        ]);
      }
      // An order to the agent after the detail is another ask, as after a quote ("resolve the
      // headphones ticket: parcel found, and assign the tee ticket to Sid"): played, it was read
      // as the resolution's text, and the assignment was never said.
      const { content, otherAsk } = toldUntilOtherAsk(after, lowerText.slice(0, at));
      const detail = clausesOf(content).map((c) => ({
        text: c.text,
        role: "situation" as const,
        detail: true as const,
      }));
      if (detail.length) return withMessages([...ask, ...detail, ...(otherAsk ? clausesOf(otherAsk) : [])]);
    }
  }
  const clauses = clausesOf(lowerText);
  return withMessages(
    clauses.length === 1
      ? clauses.map((c) => ({ text: c.text, role: "request" as const }))
      : withTopics(lowerText, clauses),
  );
}

/** The clauses, each right before a colon that is the topic of the order after it marked so (colon-topic.ts). */
function withTopics(lowerText: string, clauses: QueryClause[]): QueryClause[] {
  let from = 0;
  return clauses.map((c) => {
    const at = lowerText.indexOf(c.text, from);
    if (at < 0) return c;
    from = at + c.text.length;
    const colon = /^\s*:\s/.exec(lowerText.slice(from));
    return colon && colonTopic(c.text, lowerText.slice(from + colon[0].length))
      ? { text: c.text, role: "situation" as const, topic: true as const }
      : c;
  });
}

/**
 * An ask to tell someone something ("tell the customer … that a new tracking number is coming")
 * is the ask to its "that"; the message after it is detail, as after an ask's colon: what it
 * says is not what to do (told-content.ts).
 */
function withMessages(clauses: QueryClause[]): QueryClause[] {
  return clauses.flatMap((c) => {
    const told = c.role === "request" ? toldContent(c.text) : undefined;
    return told
      ? [
          { text: told.ask, role: "request" as const },
          { text: told.content.toLowerCase(), role: "situation" as const, told: true as const },
          // What follows the message is another ask ("…, and set it to pending"): its own clause.
          ...(told.otherAsk ? clausesOf(told.otherAsk.toLowerCase()) : []),
        ]
      : [c];
  });
}

/**
 * A question beside an ask that is none ("where is my backpack order? | I want to return it")
 * is the situation the ask is made in: the ask decides what to do, and the question is answered
 * by what that shows (the return's answer says where the order stands). Played: tracking was
 * started, and the return asked for was never offered. Where every ask is a question, they ask.
 */
function askDecides(clauses: Array<QueryClause & { question: boolean }>): QueryClause[] {
  const asks = clauses.some((c) => c.role === "request" && !c.question);
  return clauses.map((c) => ({ text: c.text, role: asks && c.question ? "situation" : c.role }));
}

/**
 * A clause (lower-case, without its mark; `marked`: a question mark ended it) that asks to know,
 * not for something done: "did it ship", "where is it?"; never "can you …?".
 */
export function isQuestion(clause: string, marked: boolean): boolean {
  if (/[\u3400-\u9fff]/.test(clause) && !/[a-z]{3}/.test(clause))
    return !ZH_ASK.test(clause) && (marked || ZH_QUESTION.test(clause));
  return !EN_REQUEST.test(clause) && (marked || (EN_QUESTION.test(clause) && !EN_CAUSATIVE.test(clause)));
}

/**
 * "Have my order … delivered to my home instead" (no question mark): something to be done to the
 * thing named, said with "have" and a past form saying where to, not "has it been done?" (set BV:
 * read as a question, the words after "order" were dropped and all eight orders listed). Never
 * beside "been", "yet", "already" or "ever": "Have my lamp order been delivered to my home" asks
 * whether it was (review 62b: read as a request, the address changed at once).
 */
const EN_CAUSATIVE =
  /^have (?:my|the|our|this|that|your|their) (?!.*\b(?:been|yet|already|ever)\b).*\b(?:[a-z]{3,}ed|sent)\s+(?:to|into|back|over)\b/;

/** The clauses of a (lower-cased) query that ask to know ("where is my order", "did it ship"), wherever they stand. */
export function questionClauses(lowerText: string): string[] {
  const { masked, unmask } = maskQuotes(lowerText);
  return questionsOf(masked)
    .filter((c) => c.question)
    .map((c) => unmask(c.text));
}

/** A question word that picks its subject ("which order shipped?"): the words after it describe it. */
const EN_PICKING = /^(?:which|what|whose)\b/;

/**
 * A question whose words after its subject ask about that subject ("did the lamp order ship?",
 * "is my order paid?"), not pick it ("which order shipped?").
 */
export function asksAboutSubject(clause: string, marked: boolean): boolean {
  return isQuestion(clause, marked) && !EN_PICKING.test(clause);
}

/**
 * The clauses of masked text. A quote standing alone after an ask ("add a note — 'on its way'")
 * is the text that ask carries, no ask of its own.
 */
function clausesOf(lowerText: string): QueryClause[] {
  return askDecides(questionsOf(lowerText)).map((c, i, all) =>
    i > 0 && all[i - 1]?.role === "request" && onlyQuoted(c.text)
      ? { text: c.text, role: "situation", told: true }
      : c,
  );
}

/**
 * A clause of courtesy or a filler alone ("…, please", "thanks!", "Actually, …") asks nothing:
 * set AI's "buy the whole cart, please" answered `not done: "please" (no capability does it)`,
 * set AS's "Actually, cancel that unpaid kettle order" `not done: "Actually"`. A retraction
 * ("Actually, don't") keeps its own clause, "don't".
 */
const COURTESY_ONLY =
  /^\s*(?:(?:actually|oh|well|so|ok|okay|hmm+|um+)[\s,]+)*(?:please|pls|thanks|thank you|thx|cheers|ok|okay|kindly|actually|oh|well|so|anyway|hmm+|um+|erm|no|nope|nah|no no)(?:\s+(?:so much|a lot|very much))?[\s.!]*$/;

function questionsOf(lowerText: string): Array<QueryClause & { question: boolean; marked: boolean }> {
  // A question mark ends its clause and makes it a question even without a question word.
  const parts = lowerText
    .replace(/[?？]/g, "\u0001,")
    .split(CLAUSE_BREAK)
    .map((p) => p.trim())
    .filter((p) => p && p !== "\u0001" && !COURTESY_ONLY.test(p.replaceAll("\u0001", "")));
  const clauses = parts.map((p) => {
    const text = p.replaceAll("\u0001", "").trim();
    const marked = p.includes("\u0001");
    return {
      text,
      role: marked ? ("request" as const) : roleOf(text),
      question: isQuestion(text, marked),
      marked,
    };
  });
  return clauses;
}
