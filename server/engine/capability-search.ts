// stays-whole: one ranking (BM25, its tokenizer, stems and phrases) tuned together on the dev sets.
import { Converter } from "opencc-js/t2cn";
import { z } from "zod";
import type { AnyCapability } from "../connectors/sdk/define-capability";
import type { NextAction } from "../connectors/sdk/outcome";
import { CONTRACTION, FUNCTION_WORDS, POSSESSIVE } from "../function-words";
import { countOfWord } from "../number-words";
import { wordTable } from "../word-table";
import { type ChineseSplit, chineseTerms } from "./chinese-terms";
import { describeInputs } from "./describe-inputs";
import { existingRecordsNamed, newRecordsAsked, overExisting, overNew } from "./existing-record-words";
import { withoutHowPast } from "./how-past";
import { declaredOptInFields, declaredPaidFields } from "./paid-choices";
import { type QueryClause, queryClauses } from "./query-clauses";
import { requestWords } from "./request-words";
import { saidByLine } from "./said-by-words";

/**
 * Lexical capability search: BM25 over titles, triggers, descriptions and synonyms, with
 * light English stemming, two-word English phrases, Chinese words (jieba) and bigrams, and
 * the connectors' synonyms. Deterministic and explainable; good enough for a catalog of dozens
 * of capabilities. Traditional Chinese is folded to simplified first (OpenCC's dictionaries
 * through opencc-js, Taiwan phrases included), so 申請換貨 and 申请换货 are the same terms and
 * one synonym list serves both.
 *
 * What a person asks for outweighs what they talk about: in "my parcel is late and I want my
 * money back" the clause that asks (query-clauses.ts) counts fully and the one describing the
 * situation less; topic words (the entities, and the words connectors declare as topics:
 * parcel, package) count less than outcome words wherever they stand, and name the entity the
 * request is about, so capabilities of other entities rank lower. On the catalog's side, what a
 * capability is not for ("Does not assign") is not indexed, and words describing its object
 * ("a resolved or closed ticket") count as topic words.
 */

/** Traditional (Taiwan, with its phrases) → simplified; simplified text passes unchanged. */
const toSimplified = Converter({ from: "twp", to: "cn" });

// The words a request is put in (function-words.ts: "can I still … something" say nothing of
// what to do), and the ones that only join the others: no term of their own. Not the question
// words (which, what, where, who…): here they are terms ("where is my parcel" asks to track it),
// and a question's first word is no imperative verb (verbPosition).
const STOP_WORDS = new Set([
  // "Everything" says the whole of what it names: "take everything out of my cart" empties it,
  // where "take the tee out" takes one line (set CR).
  ...FUNCTION_WORDS.filter((w) => !w.startsWith("wh") && w !== "everything"),
  ..."a an the to of for on in at by with and or as so if then than".split(" "),
]);

// Query-side synonyms every catalog shares (each key expands to stemmed terms); the connectors
// add the words of their own business (`searchSynonyms`).
// A key of two words is an English phrase ("call off": its words alone mean nothing of the kind).
const GENERAL_SYNONYMS: Readonly<Record<string, string[]>> = wordTable({
  // Ways of saying "cancel" that share no word with it.
  "call off": ["cancel"],
  "back out": ["cancel"],
  "pull out": ["cancel"],
  scrap: ["cancel"],
  abort: ["cancel"],
  revok: ["cancel"],
  withdraw: ["cancel"],
  annul: ["cancel"],
  // Chinese "cancel": "取消我未付款的订单" found the payment (its "未付款"), never a cancellation.
  取消: ["cancel"],
  "give back": ["return"],
  "take back": ["return"],
  "hand over": ["assign"],
  "mark done": ["resolv"],
  "sort out": ["resolv"],
  updat: ["chang"],
  modifi: ["chang"],
  switch: ["chang"],
  alter: ["chang"],
  // "send it to my home instead" asks for a change (HINT_ONLY: weighed, never asked).
  instead: ["chang"],
  edit: ["chang"],
  amend: ["chang"],
});

/**
 * Verbs that say no change of their own, or open a request ("go ahead and …", "help me …", "let's
 * …", "set/update/change/move/make/put/mark it …"): never the verb a change is asked by (review
 * 64c: "Update the headphones ticket priority to urgent" was read as asking `update_cart`'s verb,
 * "Go buy the unpaid kettle" as asking "go"). Written words; a capability's own words by their stems.
 */
const GENERAL_VERBS = new Set(
  "set update change modify edit switch alter amend move make put mark turn get do go ahead help let try now please just want need".split(
    " ",
  ),
);

/**
 * General words that only hint at their synonym's outcome, beside the verb that asks: "give the
 * … ticket to X instead of Y" asks to give, and read as asking "change" it made the assignment's
 * own "Does not change status" refuse it (set BR: an address change led, the assignment unlisted).
 */
const HINT_ONLY = new Set(["instead"]);

function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}i`;
  else if (w.length > 4 && w.endsWith("es") && /(ss|sh|ch|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  const suffix = w.length > 5 && w.endsWith("ing") ? 3 : w.length > 4 && w.endsWith("ed") ? 2 : 0;
  if (suffix) {
    w = w.slice(0, -suffix);
    // shipped, shipping → ship (as ships).
    if (/([bdgkmnprt])\1$/.test(w)) w = w.slice(0, -1);
    // cancelling, cancelled → cancel (as cancels); travelled → travel.
    else if (w.length > 5 && w.endsWith("ell")) w = w.slice(0, -1);
  }
  if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith("y")) w = `${w.slice(0, -1)}i`;
  return w;
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/** How Chinese runs become terms: jieba's words plus bigrams (see chinese-terms.ts for why). */
const DEFAULT_SPLIT: ChineseSplit = "jieba+bigrams";

interface Token {
  term: string;
  /** A stop word: no term of its own, but it separates an imperative verb from its object. */
  stop: boolean;
  latin: boolean;
  /** The English word as written (before stemming); "" for Chinese. */
  word: string;
}

/** Words that open a noun phrase: a past participle right after one describes the noun. */
const DETERMINERS = new Set("a an the my our your his her their its this that these those".split(" "));
/** Past participles not ending in -ed that name a state a record is in ("a paid order"). */
const IRREGULAR_PARTICIPLES = new Set(["paid", "sent", "lost", "sold", "bought"]);

/**
 * Whether an English word is a past participle (regular -ed, or one of the irregular states), or
 * one denied by "un-" ("my unpaid order", "the unshipped one").
 */
function isParticiple(word: string): boolean {
  if (word.length > 5 && word.startsWith("un") && isParticiple(word.slice(2))) return true;
  return IRREGULAR_PARTICIPLES.has(word) || (word.length > 4 && word.endsWith("ed"));
}

/** Relative pronouns and the forms of "be" after them: "the order that was delivered". */
const RELATIVES = new Set(["that", "which", "who"]);
const BE_FORMS = new Set(["is", "are", "was", "were", "been", "be"]);

/**
 * Positions of words naming the state a record is in, not what the request asks for: past
 * participles between a determiner and their noun ("my delivered tee", "the shipped order"), and
 * the word a relative clause says the record is ("the order that was delivered", "the ticket that
 * is pending"). So "exchange my delivered tee" asks for an exchange, not a delivery.
 */
function stateWords(tokens: Token[]): Set<number> {
  const out = new Set<number>();
  tokens.forEach((t, i) => {
    const before = tokens[i - 1];
    const after = tokens[i + 1];
    if (t.stop || !t.latin || !before) return;
    if (before.stop && BE_FORMS.has(before.word) && RELATIVES.has(tokens[i - 2]?.word ?? "")) out.add(i);
    // "which tickets are still open?" asks which are open, never to open one.
    const be = beforeAdverbs(tokens, i);
    if (be > 0 && be < i - 1 && BE_FORMS.has(tokens[be]?.word ?? "")) out.add(i);
    if (!after || after.stop || !after.latin) return;
    if (DETERMINERS.has(before.word) && isParticiple(t.word)) out.add(i);
  });
  return out;
}

/** Words between a form of "be" and the state it says ("is still open", "are already paid"). */
const STATE_ADVERBS = new Set(["still", "already", "yet", "now", "currently"]);

/** The position before the state adverbs right before `i` (i - 1 when there are none). */
function beforeAdverbs(tokens: Token[], i: number): number {
  let j = i - 1;
  while (j >= 0 && STATE_ADVERBS.has(tokens[j]?.word ?? "")) j--;
  return j;
}

/** Verbs that name the means of an ask whose purpose a "to" clause says ("use my balance to pay"). */
const USING_VERBS = new Set(["use", "using", "spend", "apply"]);

/** The verb after the first "to" past the request's verb, within a few words ("… my balance to pay …"). */
function purposeVerb(tokens: Token[], verb: number): Token | undefined {
  const to = tokens.findIndex((t, i) => i > verb && i - verb <= 6 && t.word === "to");
  const next = to > 0 ? tokens[to + 1] : undefined;
  return next?.latin && !next.stop ? next : undefined;
}

/**
 * Whether a word asked and the same stem in what a capability is not for are other words: a
 * thing or an act said with "-ing" ("pay the shipping I owe") against a state said with "-ed"
 * ("not for an order already shipped"). Set CO: the payment of shipping owed was ranked below
 * every other capability, its "not for … shipped" taken as said.
 */
function otherSense(
  asked: ReadonlySet<string> | undefined,
  avoided: ReadonlySet<string> | undefined,
): boolean {
  if (!asked?.size || !avoided?.size) return false;
  return [...asked].every((w) => w.endsWith("ing")) && [...avoided].every((w) => w.endsWith("ed"));
}

/**
 * The position of a request's verb: its first word, or the first after words that only ask
 * ("I want to order two mugs", "can you ship it"), never after a determiner ("my order …").
 * A plural is no verb (a request's verb is in its base form): "orders I can return items from"
 * names the records first, and its verb is the next word after those that only ask.
 */
function verbPosition(tokens: Token[]): number {
  const i = tokens.findIndex((t) => !t.stop);
  if (tokens.slice(0, Math.max(i, 0)).some((t) => DETERMINERS.has(t.word))) return 0;
  if (!isPlural(tokens[i])) return i;
  const next = tokens.findIndex((t, j) => j > i && !t.stop);
  return next === -1 || isPlural(tokens[next]) ? -1 : next;
}

/** An English word one "s" longer than its stem ("orders", "tickets"). */
function isPlural(token: Token | undefined): boolean {
  return !!token?.latin && token.word === `${token.term}s`;
}

/**
 * The clauses of the words with ids cut to their prefix, each with the role its clause has where
 * the ids are whole: "comment on abc_2: …" read as "comment on abc: …" named no record, and the
 * clause reader took the words before the colon for a topic (review 52c: the comment was lost).
 */
function withRolesOf(cut: QueryClause[], whole: QueryClause[]): QueryClause[] {
  if (cut.length !== whole.length) return cut;
  return cut.map((c, i) => {
    const w = whole[i] as QueryClause;
    const { topic: _t, detail: _d, told: _o, ...text } = c;
    return {
      ...text,
      role: w.role,
      ...(w.topic ? { topic: true } : {}),
      ...(w.detail ? { detail: true } : {}),
      ...(w.told ? { told: true } : {}),
    };
  });
}

function normalize(text: string): string {
  // A possessive's "s" is no term: catalog text ("the user's text") matched a query's one-letter word.
  return (CJK.test(text) ? toSimplified(text) : text)
    .toLowerCase()
    .replace(/_/g, " ")
    .replace(POSSESSIVE, "")
    .replace(CONTRACTION, "");
}

/** The tokens of already normalized text, in order. */
function tokensOf(lower: string, split: ChineseSplit): Token[] {
  const out: Token[] = [];
  // Runs of CJK characters and runs of latin letters/digits.
  for (const match of lower.matchAll(/[\u3400-\u9fff\uf900-\ufaff]+|[a-z0-9]+/g)) {
    const run = match[0];
    if (CJK.test(run))
      for (const term of chineseTerms(run, split)) out.push({ term, stop: false, latin: false, word: "" });
    else if (STOP_WORDS.has(run)) out.push({ term: run, stop: true, latin: true, word: run });
    else out.push({ term: stem(run), stop: false, latin: true, word: run });
  }
  return out;
}

/** Splits text into terms: stemmed English words, and Chinese words and bigrams. */
export function tokenize(text: string, split: ChineseSplit = DEFAULT_SPLIT): string[] {
  return tokensOf(normalize(text), split)
    .filter((t) => !t.stop)
    .map((t) => t.term);
}

/**
 * Two neighbouring English words (stop words between them skipped) as one more term: "money
 * back" then means money back, not any "back" ("came back" is reopening).
 */
function phrases(tokens: Token[], described: Set<number> = new Set()): string[] {
  const out: string[] = [];
  let previous: string | undefined;
  // A phrasal verb split by its object ("send the tee back", "call the order off") is the verb
  // and its particle too, within a few words; the words naming the record do not count ("hand the
  // change delivery address ticket from Sara over").
  const verb = verbPosition(tokens);
  let naming = 0;
  tokens.forEach((t, i) => {
    if (described.has(i) && i > verb) naming++;
    if (!t.latin || described.has(i)) previous = undefined;
    else if (!t.stop) {
      if (previous) out.push(`${previous} ${t.term}`);
      previous = t.term;
    }
    const head = tokens[verb];
    const split = head?.latin && PARTICLES.has(t.word) && i - verb > 1 && i - verb - naming <= 5;
    // So is a verb and what it makes its object ("mark the headphones ticket as pending": "mark
    // as pending", which "mark" alone, the resolve's word too, tied with resolving).
    const made = head?.latin && t.latin && !t.stop && tokens[i - 1]?.word === "as" && i - verb > 2;
    // And a verb and where it puts its object ("add one hoodie to my cart": "add cart", as a
    // synonym "add to cart" reads; set AI's "put two tees in my cart" was offered as a checkout).
    const placed = head?.latin && t.latin && !t.stop && i - verb > 2 && placedAt(tokens, i);
    const phrase = `${placed ? placingVerb(head.term) : head?.term} ${t.term}`;
    if ((split || made || placed) && out.at(-1) !== phrase) out.push(phrase);
  });
  return out;
}

/** Prepositions of where a thing is put, and the words that may stand between one and its noun. */
const DESTINATIONS = new Set(["to", "into", "in", "onto"]);

/** The verb-and-destination phrases of a clause's tokens ("add one hoodie to my cart": "add cart"). */
function placedPhrases(tokens: Token[]): string[] {
  const verb = verbPosition(tokens);
  const head = tokens[verb];
  if (!head?.latin || head.stop) return [];
  return tokens.flatMap((t, i) =>
    t.latin && !t.stop && i - verb > 1 && placedAt(tokens, i) ? [`${placingVerb(head.term)} ${t.term}`] : [],
  );
}

/** Verbs that put a thing somewhere, read as adding it there ("put a mug in my cart": "add cart"). */
const PUTTING = new Set(["put", "place", "pop", "stick", "throw"]);
const placingVerb = (term: string) => (PUTTING.has(term) ? "add" : term);

/** Prepositions: one after a destination's noun makes that phrase no destination. */
const PREPOSITIONS = new Set([
  ...DESTINATIONS,
  "on",
  "with",
  "by",
  "using",
  "via",
  "for",
  "from",
  "at",
  "of",
]);

/**
 * Whether the word at `i` is the noun of the clause's last phrase, and that phrase a destination
 * ("… to my cart"): in "put everything in my cart into an order" (review 53) the cart is where the
 * things are, and in "put the mugs in my cart on my card" no destination is said.
 */
function placedAt(tokens: Token[], i: number): boolean {
  let j = i - 1;
  while (j >= 0 && DETERMINERS.has(tokens[j]?.word ?? "")) j--;
  if (j < 0 || !DESTINATIONS.has(tokens[j]?.word ?? "")) return false;
  return !tokens.slice(i + 1).some((t) => PREPOSITIONS.has(t.word));
}

/** Particles that make a phrasal verb with the request's verb. */
const PARTICLES = new Set(["back", "off", "out", "over", "up"]);

interface IndexedDoc {
  capability: AnyCapability;
  tf: Map<string, number>;
  length: number;
  /** Words of what the capability says it is not for, that nothing else in it says it does. */
  notFor: Set<string>;
  /** How those words are written there, by term ("shipped" of `ship`). */
  notForForms: Map<string, Set<string>>;
  /** Of those, the words it says them of its records with ("Not for closed tickets"), not of acts. */
  notForRecords: Set<string>;
  /** Words it uses only to describe its object ("reopens a resolved ticket"), never as what it does. */
  objectOnly: Set<string>;
  /**
   * Phrases of what it is not for whose words it also says it does ("Not to put into the cart"
   * of a checkout, whose own words hold "cart"): "put two tees in my cart" is not for it, "buy two
   * mugs and put them on my card" still is.
   */
  notForPhrases: Set<string>;
}

const FIELD_WEIGHTS = { title: 3, id: 3, synonyms: 2, trigger: 1.5, description: 1 } as const;

export interface CapabilityHit {
  capability: string;
  title: string;
  score: number;
  trigger: string;
  when_not_to_use: string;
  applies_to: string;
  prerequisites: string[];
  inputs: string[];
  /** The values an input with a fixed set takes (`kind`: refund_only, exchange, …), by field. */
  input_values?: Record<string, string[]>;
  /**
   * Inputs only the user can choose because each choice changes what is paid (a shipping
   * method): never defaulted, so an agent asks for them with everything else before starting.
   */
  user_chooses?: string[];
  /** Optional fields set only on the user's word (an optional offer). */
  user_opts_in?: string[];
  /**
   * Fields whose default decides who sees data or what happens, each in one line: the words that
   * set it, and the default with what it means (said-by-words.ts), so an agent knows before
   * starting whether the user's words settle it.
   */
  set_by_words?: Record<string, string>;
  side_effects: string[];
  /** The capability only reads (tracking a parcel): words that ask to find something may start it. */
  read?: true;
  /** `true` always, `false` never, `"conditional"` when `approval_condition` holds. */
  requires_approval: boolean | "conditional";
  approval_condition?: string;
  /** Who must approve it for the caller, in words (the gateway adds them; see NextAction). */
  approval?: string;
  next_actions: NextAction[];
  /**
   * Words of the request this capability says it is not for ("Not for … cancelling"): it ranks
   * far lower, and a start from words never opens it.
   */
  not_for?: string[];
  /**
   * None of the words the request asks with is this capability's: it matched only on what the
   * request is about ("list my orders" and a checkout both concern orders). A start from words
   * never opens it; reads are the pages' job.
   */
  topic_only?: true;
  /**
   * The words name what the request is about (a ticket), and this capability applies to another
   * kind of record: it matched on words alone (a note on a ticket that mentions a word of another
   * record's capability, and that capability). A start from words never opens it.
   */
  off_topic?: true;
  /**
   * The words' first ask is put by a verb that is the own word of another capability a person
   * always approves, and none of this one's: a start from words never runs this one at once
   * where nobody approves it; it starts it for the agent to check.
   */
  verb_elsewhere?: string[];
  /**
   * The best match of one ask of words that ask several things ("make it high priority and give
   * it to …"), listed beside the best match of the whole however it scores against it.
   */
  another_ask?: true;
}

export interface CapabilityIndex {
  search(query: string, limit?: number): CapabilityHit[];
}

export interface CapabilityIndexOptions {
  /**
   * Id prefixes the connectors' records carry, each with the entity it names ("tkt" → "Ticket"):
   * a query that quotes an id (tkt_6) then points at that entity's capabilities.
   */
  idPrefixes?: Record<string, string>;
  /** Query words (stemmed) and the capability terms they mean, from the connectors. */
  synonyms?: Record<string, string[]>;
  /**
   * Words that name what requests are about (a parcel, an order), not what to do about it, by
   * connector id; the entities capabilities apply to count as such too. They weigh less than the
   * words naming the outcome asked for, so "the parcel never came, refund me" is a refund; and
   * they say which entity the request is about, so capabilities of other entities rank lower.
   */
  topics?: Record<string, string[]>;
  /** How Chinese text is split (the tests compare the ways); default jieba's words plus bigrams. */
  chinese?: ChineseSplit;
}

/** A clause that describes the situation, beside one that asks: its words count this much. */
const SITUATION_WEIGHT = 0.35;
/** A topic word (or a word naming the topic's kind: "refund ticket") counts this much. */
const TOPIC_WEIGHT = 0.5;
/**
 * A word saying the state the record is in ("my unpaid order", "the ticket that is pending")
 * tells which record, never the outcome asked: set CJ's "Switch the delivery of my unpaid order
 * to my home address" tied with paying it.
 */
const STATE_WEIGHT = 0.2;
const NEGATIONS = new Set(["not", "no", "never", "without", "cannot", "nor"]);
const LIST_WORDS = new Set(["or", "and"]);
const QUESTION_WORDS = new Set(["where", "when", "what", "how", "why", "which", "who"].map(stem));
/** A capability of another entity than the one the query names keeps this much of its score. */
const OFF_TOPIC_WEIGHT = 0.6;
/**
 * Of a query with several clauses the catalog knows, a capability answering only some keeps
 * this much of its score plus the rest in proportion to the (weighted) share it answers.
 */
const COVERAGE_FLOOR = 0.3;
/** A capability whose "Not for …" names a word the request asks with keeps this much of its score. */
const NOT_FOR_WEIGHT = 0.1;
/** A word the request asks with, that a capability uses only to describe its object, counts this much. */
const OBJECT_ONLY_WEIGHT = 0.3;
/** A query word under a negation ("it has not shipped", "I don't want the order") counts this much. */
const NEGATED_WEIGHT = 0.5;
/** A synonym's terms count this much of the word that brought them. */
const SYNONYM_WEIGHT = 0.6;

export function buildCapabilityIndex(
  capabilities: AnyCapability[],
  options: CapabilityIndexOptions = {},
): CapabilityIndex {
  const split = options.chinese ?? DEFAULT_SPLIT;
  const terms = (text: string) => tokenize(text, split);
  // No prototype: a query's word is looked up here ("constructor" found Object's own; review 63).
  const synonyms: Record<string, string[]> = Object.assign(Object.create(null), GENERAL_SYNONYMS);
  for (const [word, expansion] of Object.entries(options.synonyms ?? {}))
    synonyms[word] = [...new Set([...(synonyms[word] ?? []), ...expansion])];
  const idPrefixList = Object.keys(options.idPrefixes ?? {});
  const prefixes = new Map<string, string[]>();
  for (const [prefix, entity] of Object.entries(options.idPrefixes ?? {}))
    for (const p of terms(prefix)) prefixes.set(p, terms(entity));
  // Each topic word with the entities it names: an entity's own name, and a connector's topic
  // words name the entities of that connector's capabilities.
  const topicEntities = new Map<string, Set<string>>();
  const name = (term: string, entity: string) => {
    if (!topicEntities.has(term)) topicEntities.set(term, new Set());
    topicEntities.get(term)?.add(entity);
  };
  for (const c of capabilities) {
    for (const t of terms(c.appliesTo.entity)) name(t, c.appliesTo.entity);
    for (const word of options.topics?.[c.connector] ?? [])
      for (const t of terms(word)) name(t, c.appliesTo.entity);
  }
  const prefixEntities = new Map<string, string>();
  for (const [prefix, entity] of Object.entries(options.idPrefixes ?? {}))
    for (const p of terms(prefix))
      for (const c of capabilities)
        if (terms(c.appliesTo.entity).join(" ") === terms(entity).join(" "))
          prefixEntities.set(p, c.appliesTo.entity);
  const topics = new Set(topicEntities.keys());
  // Each entity by the last word of its name, its head noun ("order" of Order): what "my kettle
  // order" names as a record already there.
  const entityNames = new Map<string, string>();
  for (const c of capabilities) {
    const head = terms(c.appliesTo.entity).at(-1);
    if (head) entityNames.set(head, c.appliesTo.entity);
  }
  // The words only a capability that makes a new record is named by ("buy", "purchase" of a
  // checkout): a request opening with one, then how many, asks for that new record as "order two
  // tees" does (set BN: "Buy two Logo Tees in size M, express shipping to my home" tied the
  // purchase with an exchange of sizes, "Buy one Desk Lamp with express shipping to my office"
  // with an address change).
  const named = (c: AnyCapability) => terms([c.id, c.title, ...c.synonyms].join(" "));
  const acting = new Set(capabilities.filter((c) => c.appliesTo.field).flatMap(named));
  // One-word names only: "check" of "check out" is no purchase (review 60e: "Check an order's
  // shipping status" started a checkout).
  const oneWord = (c: AnyCapability) =>
    terms([c.id, c.title, ...c.synonyms].filter((n) => !/\s/.test(n.trim())).join(" "));
  // Each capability's own one-word names (its id, title and synonyms): the verbs it is asked by.
  // General verbs (set, update, change, move…) are no capability's own: many say them.
  const general = new Set([...GENERAL_VERBS].map(stem));
  const ownWords = new Map(
    capabilities.map((c) => [c.id, new Set(oneWord(c).filter((t) => !general.has(t)))]),
  );
  // Of the changes a person always approves: one approved only on a condition (an assignment
  // across teams) is no other ask's by its verb alone ("assign … and set it to pending").
  const approvedWords = capabilities
    .filter((c) => c.policy.approval === "always")
    .map((c) => ownWords.get(c.id) ?? new Set<string>());
  const makingVerbs = new Map<string, string>();
  for (const c of capabilities)
    if (!c.appliesTo.field)
      for (const t of oneWord(c))
        if (!acting.has(t) && !entityNames.has(t)) makingVerbs.set(t, c.appliesTo.entity);
  // The words of what the capabilities do (their ids, titles and synonyms), not the records'
  // names: "order a cancellation" asks an act, "order a kettle" a thing.
  const actTerms = new Set(
    capabilities
      .flatMap((c) => terms([c.id, c.title, ...c.synonyms].join(" ")))
      .filter((t) => !entityNames.has(t)),
  );
  /**
   * Positions of the words right before a topic word that describe it ("the refund ticket", "a
   * resolved or closed ticket", "退款订单"), unless they open the text (an imperative verb:
   * "assign ticket 4", "track shipment").
   */
  const objectWords = (tokens: Token[]): Set<number> => {
    const out = new Set<number>();
    tokens.forEach((topic, i) => {
      if (topic.stop || !topics.has(topic.term)) return;
      for (let j = i - 1; j > 0; j--) {
        const word = tokens[j] as Token;
        if ((word.stop && !LIST_WORDS.has(word.term)) || word.latin !== topic.latin) break;
        if (!word.stop) out.add(j);
      }
    });
    return out;
  };
  const docs: IndexedDoc[] = capabilities.map((capability) => {
    const tf = new Map<string, number>();
    const negatedTerms = new Set<string>();
    const negatedForms = new Map<string, Set<string>>();
    const negate = (t: Token) => {
      negatedTerms.add(t.term);
      if (t.latin) negatedForms.set(t.term, (negatedForms.get(t.term) ?? new Set()).add(t.word));
    };
    // Negated words describing the record ("not for closed tickets"), not an act ("does not change").
    const negatedObjects = new Set<string>();
    const asObject = new Set<string>();
    const asAction = new Set<string>();
    let length = 0;
    const count = (t: string, weight: number) => {
      tf.set(t, (tf.get(t) ?? 0) + weight);
      length += weight;
    };
    const add = (text: string, weight: number) => {
      for (const sentence of normalize(text).split(/[.;!?。；！？]+/)) {
        // What a capability is not for ("Does not assign, resolve or reopen") does not find it.
        let negated = false;
        // A negation inside parentheses ends with them: "refund-only (not shipped), return or
        // exchange (delivered)" does not say it is not for deliveries.
        let outside: boolean | undefined;
        // Phrases stay inside one list entry (split keeps the separators, at odd positions).
        for (const [k, part] of sentence.split(/([,:，：、()]+)/).entries()) {
          if (k % 2) {
            if (part.includes(")") && outside !== undefined) [negated, outside] = [outside, undefined];
            if (part.includes("(")) outside = negated;
            continue;
          }
          const tokens = tokensOf(part, split);
          const described = objectWords(tokens);
          tokens.forEach((t, i) => {
            if (NEGATIONS.has(t.term)) negated = true;
            if (t.stop) return;
            if (negated) {
              negate(t);
              if (described.has(i)) negatedObjects.add(t.term);
              return;
            }
            // Words describing the object ("a resolved or closed ticket") say what it applies to,
            // not what it does: they count as topic words.
            count(t.term, described.has(i) ? weight * TOPIC_WEIGHT : weight);
            (described.has(i) ? asObject : asAction).add(t.term);
          });
          if (!negated) for (const p of phrases(tokens, described)) count(p, weight);
        }
      }
    };
    add(capability.title, FIELD_WEIGHTS.title);
    // The entity it applies to (and ids with its connector's prefix) point at it.
    add(capability.appliesTo.entity, FIELD_WEIGHTS.description);
    add(capability.id, FIELD_WEIGHTS.id);
    for (const synonym of capability.synonyms) add(synonym, FIELD_WEIGHTS.synonyms);
    add(capability.trigger.use, FIELD_WEIGHTS.trigger);
    add(capability.description, FIELD_WEIGHTS.description);
    // What it is not for: its "avoid" words (and negated description words), unless it also says
    // it does them ("Not for cancelling an unpaid order" beside "cancels a paid one") and unless
    // they name what it applies to (an order is no request).
    // A part saying a verb and where it puts its object ("put into the cart"), a phrase the
    // capability does not say, is not for that phrase only: its words alone stay free ("put them
    // on my card" may still buy).
    const notForPhrases = new Set<string>();
    for (const part of normalize(capability.trigger.avoid).split(/[.;!?。；！？,:，：、()]+/)) {
      const tokens = tokensOf(part, split);
      for (const i of objectWords(tokens)) negatedObjects.add((tokens[i] as Token).term);
      const own = placedPhrases(tokens.filter((t) => !NEGATIONS.has(t.term))).filter((p) => !tf.has(p));
      for (const p of own) notForPhrases.add(p);
      if (!own.length) for (const t of tokens) if (!t.stop) negate(t);
    }
    const notFor = new Set(
      [...negatedTerms].filter((t) => !tf.has(t) && !topics.has(t) && !NEGATIONS.has(t)),
    );
    const notForRecords = new Set([...notFor].filter((t) => negatedObjects.has(t)));
    const objectOnly = new Set([...asObject].filter((t) => !asAction.has(t)));
    return {
      capability,
      tf,
      length,
      notFor,
      notForForms: negatedForms,
      notForRecords,
      objectOnly,
      notForPhrases,
    };
  });
  const avgLength = docs.reduce((s, d) => s + d.length, 0) / Math.max(docs.length, 1);
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const k1 = 1.2;
  const b = 0.75;
  const idf = (t: string) => {
    const n = df.get(t) ?? 0;
    return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
  };

  /** Each query term with its weight: what is asked for counts fully, topic and situation less. */
  const weigh = (
    query: string,
    uncut: string = query,
  ): {
    weights: Map<string, number>;
    named: Set<string>;
    clauses: Array<{ terms: Set<string>; weight: number }>;
    asked: Set<string>;
    askedForms: Map<string, Set<string>>;
    told: Set<string>;
    states: Set<string>;
    naming: Set<string>;
    existing: Set<string>;
    verbs: Set<string>;
    mainVerbs: Set<string>;
    making: Set<string>;
    phrased: Set<string>;
    asks: number;
  } => {
    const weights = new Map<string, number>();
    // The words that ask for something: of the clause that asks, not topics, not negated ("it has
    // not shipped" asks no shipping; "it is still broken, reopen it" does not ask "still").
    const asked = new Set<string>();
    // How the asking words were written, by term ("shipping" of `ship`).
    const askedForms = new Map<string, Set<string>>();
    // The same words of the clauses that describe the situation ("my order is waiting for payment").
    const told = new Set<string>();
    // The words that say what state the record is in ("a paid order", "the ticket that is open").
    const states = new Set<string>();
    // The other words describing the record: its name ("the change delivery address ticket"), or
    // a state no participle says ("my unpaid order").
    const naming = new Set<string>();
    const named = new Set<string>();
    // The phrases of the clauses that ask, not negated: what a capability's "not for" phrase meets.
    const phrased = new Set<string>();
    // The entities the words name a record of that is already there ("my kettle order"), and the
    // verbs the asking clauses open with ("pay").
    const existing = new Set<string>();
    const verbs = new Set<string>();
    const mainVerbs = new Set<string>();
    // The entities a request asks to make, its verb their name ("order two mugs").
    const making = new Set<string>();
    const parts: Array<{ terms: Set<string>; weight: number }> = [];
    let own = new Set<string>();
    const put = (t: string, w: number) => {
      own.add(t);
      weights.set(t, Math.max(weights.get(t) ?? 0, w));
    };
    // The words with ids whole are read a second time only where an id was cut (a hot path).
    const cut = queryClauses(normalize(query));
    const clauses = uncut === query ? cut : withRolesOf(cut, queryClauses(normalize(uncut)));
    const mixed = clauses.some((c) => c.role === "situation") && clauses.some((c) => c.role === "request");
    for (const clause of clauses) {
      const role = mixed && clause.role === "situation" ? SITUATION_WEIGHT : 1;
      own = new Set();
      parts.push({ terms: own, weight: role });
      // "…, paid by card" after an ask says how it is done, never what is asked (set BK: "paid"
      // matched "a paid order" of the after-sales request): left out, never read as "pay"
      // (review 60b: "Return the kettle from ord_delivered, paid by card" then started a purchase).
      const tokens = tokensOf(withoutHowPast(clause.text, clauses.indexOf(clause) > 0), split);
      const content = tokens.filter((t) => !t.stop);
      // Words describing the record: before a topic word ("the refund ticket") or a state it is
      // in ("my delivered tee").
      const verb = verbPosition(tokens);
      for (const entity of existingRecordsNamed(tokens, verb, (t) => entityNames.get(t)))
        existing.add(entity);
      if (clause.role === "request")
        for (const entity of newRecordsAsked(
          tokens,
          verb,
          (t) => entityNames.get(t) ?? makingVerbs.get(t),
          (w) => !!countOfWord(w),
          (t) => actTerms.has(t),
          (w) => prefixEntities.has(w.term) || /\d/.test(w.word),
        ))
          making.add(entity);
      const head = tokens[verb];
      if (clause.role === "request" && head?.latin && !head.stop && !topics.has(head.term))
        verbs.add(head.term);
      // "Use my balance to pay what's still owed on the backpack order": what the clause asks is
      // the verb its "to" opens, the means before it (set CP: a purchase tied with the payment).
      const purpose =
        clause.role === "request" && head && USING_VERBS.has(head.word)
          ? purposeVerb(tokens, verb)
          : undefined;
      if (purpose) verbs.add(purpose.term);
      const stated = stateWords(tokens);
      // The verb that says what is done, past openers and general verbs ("go ahead and buy …",
      // "help me buy …", "let's buy …"): what a change nobody approves must be asked by. A state
      // word naming the record is no verb (set CS: "Change my unpaid order to go to my home
      // address" was said to "ask to unpaid", the payment's word).
      if (clause.role === "request") {
        const from = Math.max(verb, 0);
        const main = tokens
          .slice(from, from + 5)
          .find(
            (t, k) =>
              t.latin &&
              !t.stop &&
              !GENERAL_VERBS.has(t.word) &&
              !topics.has(t.term) &&
              !stated.has(from + k),
          );
        if (main) mainVerbs.add(main.term);
      }
      const described = new Set([...objectWords(tokens), ...stated]);
      // The request's verb describes no record, wherever it stands ("orders I can return items from").
      if (clause.role === "request") described.delete(verb);
      let negated = false;
      tokens.forEach((t, i) => {
        if (NEGATIONS.has(t.term) || t.term === "t") negated = true;
        if (t.stop) return;
        for (const entity of topicEntities.get(t.term) ?? []) named.add(entity);
        const ofPrefix = prefixEntities.get(t.term);
        if (ofPrefix) named.add(ofPrefix);
        // A question word inside a clause is a relative ("update where it should go"), no question.
        if (i > 0 && QUESTION_WORDS.has(t.term)) return;
        // A topic word opening a request is its verb ("order three t-shirts", "ship it home").
        const topic = (topics.has(t.term) && !(i === verb && clause.role === "request")) || described.has(i);
        // Words under a negation say what is not wanted ("I don't want the order anymore").
        const w =
          role * (stated.has(i) ? STATE_WEIGHT : topic ? TOPIC_WEIGHT : 1) * (negated ? NEGATED_WEIGHT : 1);
        // A record's id (its prefix and number) says what the request is about, never what it asks.
        const id = !!ofPrefix || /^\d+$/.test(t.term);
        if (!topic && !id && !negated && !NEGATIONS.has(t.term)) {
          (role === 1 ? asked : told).add(t.term);
          if (t.latin) askedForms.set(t.term, (askedForms.get(t.term) ?? new Set()).add(t.word));
        }
        if (described.has(i) && !topics.has(t.term) && !negated)
          (stated.has(i) || isParticiple(t.word) ? states : naming).add(t.term);
        put(t.term, w);
        for (const s of [...(synonyms[t.term] ?? []), ...(prefixes.get(t.term) ?? [])]) {
          put(s, w * SYNONYM_WEIGHT);
          // A general word for an outcome ("scrap" → cancel) asks for it as the word would.
          if (asked.has(t.term) && !HINT_ONLY.has(t.term) && GENERAL_SYNONYMS[t.term]?.includes(s))
            asked.add(s);
        }
      });
      if (content.length > 1)
        for (const p of phrases(tokens, described)) {
          put(p, role);
          if (clause.role === "request" && !negated) phrased.add(p);
          // A phrase that means one word ("call off" → cancel) asks for it as the word would.
          for (const s of synonyms[p] ?? []) {
            put(s, role * SYNONYM_WEIGHT);
            asked.add(s);
          }
        }
    }
    const asks = clauses.filter((c) => c.role === "request").length;
    return {
      weights,
      named,
      clauses: parts,
      asked,
      askedForms,
      told,
      states,
      naming,
      existing,
      verbs,
      mainVerbs,
      making,
      phrased,
      asks,
    };
  };

  return {
    search(query, limit = 5) {
      const weighed = weigh(requestWords(query, idPrefixList), requestWords(query));
      const { weights, named, clauses } = weighed;
      // A request the catalog knows no word of ("…, use my balance") says nothing of what is
      // asked: the situation's words do ("my order is waiting for payment"), so a capability they
      // fit is no mere match on the topic.
      const known = (words: Set<string>) => [...words].some((t) => docs.some((d) => d.tf.has(t)));
      const asked = known(weighed.asked) || !known(weighed.told) ? weighed.asked : weighed.told;
      // Clauses that say something the catalog knows; a capability that answers more of them
      // (buy two, ship to the office, pay from my balance: all checkout) fits better than one
      // that answers a single clause (ship to the office).
      const telling = clauses.filter((c) => docs.some((d) => [...c.terms].some((t) => d.tf.has(t))));
      const total = telling.reduce((sum, c) => sum + c.weight, 0);
      const matched = docs.map((d) => {
        let score = 0;
        for (const [t, weight] of weights) {
          const f = d.tf.get(t);
          if (!f) continue;
          // What the request asks for ("resolve …") is not what a capability's object merely is
          // ("reopens a resolved ticket").
          const w = asked.has(t) && d.objectOnly.has(t) ? weight * OBJECT_ONLY_WEIGHT : weight;
          score += w * idf(t) * ((f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / avgLength)));
        }
        if (telling.length > 1) {
          const covered = telling.reduce(
            (sum, c) => sum + ([...c.terms].some((t) => d.tf.has(t)) ? c.weight : 0),
            0,
          );
          score *= COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * (covered / total);
        }
        // A capability of an entity the query does not name ("the refund ticket" names tickets).
        const offTopic = named.size > 0 && !named.has(d.capability.appliesTo.entity);
        if (offTopic) score *= OFF_TOPIC_WEIGHT;
        const naming = d.capability.foundBy;
        if (naming && !naming.some((w) => terms(w).some((t) => weights.has(t)))) score = 0;
        // What it is not for, asked ("cancel" of a checkout) or said of the record ("my unpaid
        // order" of a refund whose "Not for an unpaid order" says so). A word naming the record
        // ("the change delivery address ticket") counts only where the capability says it of its
        // records, never against an act it does not do ("Does not change status").
        const notFor = [
          ...[
            ...new Set([
              ...asked,
              ...weighed.states,
              ...[...weighed.naming].filter((t) => d.notForRecords.has(t)),
            ]),
          ].filter((t) => d.notFor.has(t) && !otherSense(weighed.askedForms.get(t), d.notForForms.get(t))),
          // Only where the words ask one thing: "exchange my tee for a size L and put it in the
          // cart" is an exchange first (review 53b), its cart phrase another ask.
          ...(weighed.asks <= 1 ? [...weighed.phrased].filter((p) => d.notForPhrases.has(p)) : []),
        ];
        if (notFor.length) score *= NOT_FOR_WEIGHT;
        const topicOnly = asked.size > 0 && ![...asked].some((t) => d.tf.has(t));
        // The verb the request asks with is the own word of another capability, one a person
        // always approves, and not this one's ("buy the unpaid kettle": a purchase's verb beside the
        // cancellation's "unpaid"). Said, not scored: a start never runs such a match at once
        // (review 64b: the order was cancelled). A verb no capability owns ("ship it home"), or
        // only ones nobody approves ("reopen it" done by a status change), says nothing.
        const own = ownWords.get(d.capability.id);
        // The first ask's verb: a later ask's is its own capability's by right ("ship it home, and
        // pay for it by card"), while "buy the unpaid kettle and let me know" still asks to buy.
        const verbs = [...weighed.mainVerbs].slice(0, 1);
        const others = verbs.filter((v) => !own?.has(v) && approvedWords.some((w) => w.has(v)));
        const elsewhere = others.length > 0 && !verbs.some((v) => own?.has(v));
        return { d, score, notFor, topicOnly, offTopic, verbElsewhere: elsewhere ? others : [] };
      });
      const scored = overNew(overExisting(matched, weighed), weighed.making)
        .filter((x) => x.score > 0)
        // A match that does something the words ask comes before those that only concern the same
        // kind of record (or are not for it), before the limit cuts: words naming the record ("the
        // change delivery address ticket") score for capabilities of its title, that do none of it.
        .sort(
          (x, y) =>
            Number(x.topicOnly || x.notFor.length > 0) - Number(y.topicOnly || y.notFor.length > 0) ||
            y.score - x.score ||
            x.d.capability.id.localeCompare(y.d.capability.id),
        )
        .slice(0, limit);
      return scored.map(({ d, score, notFor, topicOnly, offTopic, verbElsewhere }) => ({
        ...capabilityHit(d.capability, score),
        ...(notFor.length ? { not_for: notFor } : {}),
        ...(topicOnly ? { topic_only: true as const } : {}),
        ...(offTopic ? { off_topic: true as const } : {}),
        ...(verbElsewhere.length ? { verb_elsewhere: verbElsewhere } : {}),
      }));
    },
  };
}

export function capabilityHit(capability: AnyCapability, score: number): CapabilityHit {
  const rule = capability.policy.approval;
  const requiresApproval = typeof rule === "function" ? ("conditional" as const) : rule === "always";
  const paid = declaredPaidFields(capability);
  const optIn = declaredOptInFields(capability);
  return {
    capability: capability.id,
    title: capability.title,
    score: Math.round(score * 1000) / 1000,
    trigger: capability.trigger.use,
    when_not_to_use: capability.trigger.avoid,
    applies_to: capability.appliesTo.entity,
    prerequisites: capability.prerequisites,
    inputs: describeInputs(capability).map((i) => i.field),
    ...enumInputs(capability),
    ...(paid.length ? { user_chooses: paid } : {}),
    ...(optIn.length ? { user_opts_in: optIn } : {}),
    ...settingLines(capability),
    side_effects: capability.sideEffects,
    ...(capability.policy.effect === "read" ? { read: true as const } : {}),
    requires_approval: requiresApproval,
    ...(typeof rule === "function"
      ? { approval_condition: capability.policy.approvalWhen ?? "depends on the request; the flow says" }
      : {}),
    next_actions: [
      {
        tool: "start_action",
        args: { capability: capability.id },
        description: `Start ${capability.title.toLowerCase()}${
          capability.appliesTo.field ? ` (pass ${capability.appliesTo.field} as entity_id)` : ""
        }`,
      },
    ],
  };
}

/** The entry's line per consequential field (NodeDefinition.saidBy), with its schema's default. */
function settingLines(capability: AnyCapability): { set_by_words?: Record<string, string> } {
  const lines: Record<string, string> = {};
  for (const node of capability.nodes)
    for (const [field, words] of Object.entries(node.saidBy ?? {}))
      lines[field] = saidByLine(words, node.fields?.[field]?.safeParse(undefined).data);
  return Object.keys(lines).length ? { set_by_words: lines } : {};
}

const enumCache = new WeakMap<AnyCapability, Record<string, string[]>>();

/** The inputs with a fixed set of values, read once per capability from their schemas. */
function enumInputs(capability: AnyCapability): { input_values?: Record<string, string[]> } {
  let values = enumCache.get(capability);
  if (!values) {
    values = {};
    for (const node of capability.nodes)
      for (const [field, schema] of Object.entries(node.fields ?? {})) {
        const json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as { enum?: unknown[] };
        const set = (json.enum ?? []).filter((v): v is string => typeof v === "string");
        if (set.length) values[field] = set;
      }
    enumCache.set(capability, values);
  }
  return Object.keys(values).length ? { input_values: values } : {};
}
