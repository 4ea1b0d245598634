import type { AnyCapability } from "../connectors/sdk/define-capability";

/** A word of a request as capability search reads it (capability-search.ts's tokens). */
export interface RecordWord {
  /** The stemmed term ("" for none). */
  term: string;
  /** The English word as written. */
  word: string;
  /** A function word: no term of its own. */
  stop: boolean;
  latin: boolean;
}

/**
 * Words that point at one record already there: a possessive or a definite article ("my kettle
 * order", "the order that's waiting for payment"). "An order" may be one still to make.
 */
const DEFINITE = new Set("the my our your his her their its this that these those".split(" "));

/**
 * The entities the words name as a record that already exists: an entity's own name after a
 * definite determiner, with only the words describing it between ("my kettle order", "the
 * unpaid order"), never at `verb` (the request's verb: "order the mug"). `entityOf` maps a term
 * to the entity it is the name of; a connector's topic words ("the item in my cart") name no
 * record of their own here.
 */
export function existingRecordsNamed(
  words: readonly RecordWord[],
  verb: number,
  entityOf: (term: string) => string | undefined,
): Set<string> {
  const out = new Set<string>();
  words.forEach((w, i) => {
    const entity = w.latin && !w.stop && i !== verb ? entityOf(w.term) : undefined;
    if (!entity) return;
    let j = i - 1;
    while (j >= 0 && words[j]?.latin && !words[j]?.stop && j !== verb) j--;
    if (j >= 0 && DEFINITE.has(words[j]?.word ?? "")) out.add(entity);
  });
  return out;
}

/**
 * A capability that makes a new record, where the words name one already there ("pay for my
 * kettle order") and ask what a capability of that record does, keeps this much of its score.
 */
const NEW_RECORD_WEIGHT = 0.1;

/** A capability as the search scored it: its indexed terms, and what it was found not to fit. */
interface Matched {
  d: { capability: AnyCapability; tf: ReadonlyMap<string, number>; objectOnly: ReadonlySet<string> };
  score: number;
  notFor: readonly string[];
  topicOnly: boolean;
}

/**
 * Words that name a record already there ("my kettle order", "the order that's waiting for
 * payment") and open with a verb a capability of that record does ("pay"): that capability is
 * meant, not one that makes a new record (which takes no record: no `appliesTo.field`), however
 * many of the words name its own fields ("use a voucher"). The new record's capability keeps
 * NEW_RECORD_WEIGHT of its score.
 */
export function overExisting<M extends Matched>(
  matched: M[],
  words: { existing: ReadonlySet<string>; verbs: ReadonlySet<string> },
): M[] {
  if (!words.existing.size || !words.verbs.size) return matched;
  const doing = matched.some(
    ({ d, score, notFor, topicOnly }) =>
      score > 0 &&
      !!d.capability.appliesTo.field &&
      words.existing.has(d.capability.appliesTo.entity) &&
      !notFor.length &&
      !topicOnly &&
      [...words.verbs].some((v) => d.tf.has(v) && !d.objectOnly.has(v)),
  );
  if (!doing) return matched;
  return matched.map((m) =>
    m.d.capability.appliesTo.field ? m : { ...m, score: m.score * NEW_RECORD_WEIGHT },
  );
}

/** Words after a record's name used as the request's verb that say how many to make ("order two …"). */
const MAKING_NEXT = new Set("a an another some more".split(" "));

/**
 * The entities whose name the request opens with as its verb, followed by how many ("order two
 * tees", "order a mug", "order 3 mugs"): a new record of that kind is asked for. Set AG: "Order
 * two Logo Tees in size M, express to my office, …" ranked the after-sales request (exchange
 * sizes) and the delivery-address change over the checkout, as "order" matched every capability
 * of orders alike.
 */
export function newRecordsAsked(
  words: readonly RecordWord[],
  verb: number,
  entityOf: (term: string) => string | undefined,
  isCount: (word: string) => boolean,
  isAct: (term: string) => boolean,
  isId: (word: RecordWord) => boolean,
): Set<string> {
  const head = words[verb];
  const entity = head?.latin ? entityOf(head.term) : undefined;
  const next = words[verb + 1]?.word ?? "";
  const thing = words[verb + 2];
  if (!entity || !(MAKING_NEXT.has(next) || isCount(next)) || !thing) return new Set();
  // Review 52b: what follows the count is a thing to make, not an act on one there ("order a
  // cancellation of …", "order a return"), nor the record's own number ("order 2 arrived
  // broken"); and no record id is named ("… of ord_pending").
  const act = thing.latin && isAct(thing.term);
  const told = /ed$/.test(thing.word) || SAYS_WHAT_HAPPENED.has(thing.word);
  const id = words.some((w, i) => i > verb + 1 && isId(w) && !isCount(w.word));
  return act || told || id ? new Set() : new Set([entity]);
}

/** Words after "order 2" that say what happened to it: it is the subject, no order to make. */
const SAYS_WHAT_HAPPENED = new Set(
  "never was is has had came still hasn wasn isn didn did does got".split(" "),
);

/**
 * Where the words ask to make a record of a kind (newRecordsAsked) and a capability makes one,
 * the capabilities that change a record of that kind already there keep NEW_RECORD_WEIGHT of
 * their score: the mirror of overExisting.
 */
export function overNew<M extends Matched>(matched: M[], making: ReadonlySet<string>): M[] {
  if (!making.size) return matched;
  const makes = matched.some(
    ({ d, score, notFor }) =>
      score > 0 &&
      !d.capability.appliesTo.field &&
      making.has(d.capability.appliesTo.entity) &&
      !notFor.length,
  );
  if (!makes) return matched;
  return matched.map((m) =>
    m.d.capability.appliesTo.field && making.has(m.d.capability.appliesTo.entity)
      ? { ...m, score: m.score * NEW_RECORD_WEIGHT }
      : m,
  );
}
