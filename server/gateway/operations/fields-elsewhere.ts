import { capabilityRegistry } from "../../connectors/connector-registry";
import { describeInputs } from "../../connectors/sdk/capability-inputs";
import type { AnyCapability } from "../../connectors/sdk/define-capability";
import { type CapabilityHit, tokenize } from "../../engine/capability-search";
import { wordTokens } from "../../engine/choice-words";
import { namePhrase } from "../../engine/name-phrase";
import { queryClauses } from "../../engine/query-clauses";
import { askHead, type OtherAsk } from "./other-asks";
import { kindWord } from "./points-back";

/**
 * Words of the user's naming a field the started capability does not take, said as not done
 * with the capability that takes it: "Pay for my kettle order …, and use a voucher if one
 * applies" pays the order, and a payment takes no voucher field (only the capability placing a
 * new order does). Issue 23: such an ask was offered as a second, new order, or went unsaid.
 */
export interface FieldElsewhere {
  words: string;
  field: string;
  /** The capability that takes the field. */
  taken_by: string;
  /** It takes it only where it makes a new record, of this kind (it changes no record there is). */
  new_record?: string;
}

type Search = (query: string) => Promise<CapabilityHit[]>;

/**
 * Per catalog, each unit of terms (one term, or a choice's terms in order) with the field names
 * whose name, choices or description hold it: a unit held by one field name only names that one.
 */
const unitsOf = new WeakMap<ReadonlyMap<string, AnyCapability>, Map<string, Set<string>>>();

function fieldUnits(catalog: ReadonlyMap<string, AnyCapability>): Map<string, Set<string>> {
  let units = unitsOf.get(catalog);
  if (units) return units;
  units = new Map();
  const add = (unit: string, field: string) => {
    if (!unit) return;
    if (!units?.has(unit)) units?.set(unit, new Set());
    units?.get(unit)?.add(field);
  };
  for (const capability of catalog.values())
    for (const input of describeInputs(capability)) {
      for (const t of tokenize(input.field)) add(t, input.field);
      for (const t of tokenize(input.description ?? "")) add(t, input.field);
      for (const value of input.values ?? []) add(tokenize(value).join(" "), input.field);
    }
  unitsOf.set(catalog, units);
  return units;
}

/** A word of the request as written, with its terms (as the capability search reads them). */
interface Said {
  raw: string;
  terms: string[];
}

/**
 * The words of the clauses that ask (not those describing the situation, nor the message an ask
 * carries: "comment … that the voucher code failed"), in order.
 */
function askingWords(intent: string): Said[] {
  return queryClauses(intent.toLowerCase())
    .filter((c) => c.role === "request" && !c.told && !c.detail)
    .flatMap((c) => (askHead(c.text) ?? c.text).match(/[\p{L}\p{N}_]+/gu) ?? [])
    .map((raw) => ({ raw, terms: tokenize(raw) }));
}

/**
 * The fields the request's asking words name (by a unit only that field name holds) that the
 * started capability does not take, each with the words naming it. Words that set one of the
 * action's own fields ("store credit") name nothing here.
 */
function namedFields(
  intent: string,
  started: AnyCapability,
  setWords: readonly string[],
): Map<string, string[]> {
  const catalog = capabilityRegistry();
  const units = fieldUnits(catalog);
  const own = new Set(describeInputs(started).map((i) => i.field));
  const said = askingWords(intent).filter((w) => !wordTokens(w.raw).some((t) => setWords.includes(t)));
  const terms = said.flatMap((w, i) => w.terms.map((term) => ({ term, at: i })));
  const out = new Map<string, string[]>();
  for (const [unit, fields] of units) {
    const [field] = fields;
    if (fields.size !== 1 || !field || own.has(field)) continue;
    const parts = unit.split(" ");
    terms.forEach((_, k) => {
      if (!parts.every((p, j) => terms[k + j]?.term === p)) return;
      const words = parts.map((_, j) => said[terms[k + j]?.at ?? -1]?.raw ?? "");
      out.set(field, [...new Set([...(out.get(field) ?? []), ...words])]);
    });
  }
  return out;
}

/**
 * The capability (of the searched matches that fit) that takes `field`, other than the started
 * one, where `words` only name that field: not words of what it is (its id, title or synonyms:
 * "note" of a capability that adds one names its act, not its `internal` field's description).
 */
function takerOf(
  hits: readonly CapabilityHit[],
  field: string,
  started: string,
  words: readonly string[],
): AnyCapability | undefined {
  const catalog = capabilityRegistry();
  for (const h of hits) {
    const taker = catalog.get(h.capability);
    if (!taker || h.capability === started || h.not_for?.length || h.topic_only || h.off_topic) continue;
    if (h.inputs.includes(field) && !namesAct(taker, words)) return taker;
  }
  return undefined;
}

/** Whether any of `words` is a term of the capability's id, title or synonyms. */
function namesAct(capability: AnyCapability, words: readonly string[]): boolean {
  const act = new Set(tokenize([capability.id, capability.title, ...capability.synonyms].join(" ")));
  return words.some((w) => tokenize(w).some((t) => act.has(t)));
}

/** Whether `text` holds each of `words` as a word. */
const holds = (text: string, words: readonly string[]) => {
  const own = new Set(text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);
  return words.every((w) => own.has(w));
};

/** `text` without `words` (each as a word). */
const without = (text: string, words: readonly string[]) =>
  text
    .split(/(\s+)/)
    .filter((part) => !words.includes(part.toLowerCase().replace(/[^\p{L}\p{N}_]/gu, "")))
    .join("")
    .replace(/\s+/g, " ")
    .trim();

/**
 * The fields the user's words name that the started capability does not take, said as not done
 * with the capability that takes each; and the other asks left to offer. An other ask whose words
 * are only such a field of its best match ("use a voucher if one applies" → a new order: without
 * "voucher" the words fit it no more) is that field, not an ask to place a new order; one with
 * more words of its match ("buy a mug with a voucher") keeps its call. A field named in the
 * started ask's own words ("pay my kettle order with a voucher") is said where its words alone
 * fit the capability that takes it, and not the started one. Words of a text the action carries
 * (`texts`: a note's body) are that text.
 */
export async function fieldsElsewhere(
  intent: string,
  startedId: string,
  asks: readonly OtherAsk[],
  setWords: readonly string[],
  search: Search,
  texts: readonly string[] = [],
): Promise<{ asks: OtherAsk[]; elsewhere: FieldElsewhere[] }> {
  const started = capabilityRegistry().get(startedId);
  // The words naming the record (a ticket named by its subject) say which record, never a field
  // of another capability: set AJ's close of a ticket whose subject held such a field's word was
  // followed by that word said as not done.
  const noun = started ? (wordTokens(started.appliesTo.entity)[0] ?? "") : "";
  const naming = started
    ? new Set([
        ...namePhrase(intent.toLowerCase(), noun, () => true).tokens,
        ...relativeClauseWords(intent.toLowerCase(), noun),
      ])
    : new Set<string>();
  const found = started
    ? namedFields(intent, started, [...setWords, ...naming])
    : new Map<string, string[]>();
  // Words of a text the action carries (a note's body) are that text.
  for (const [field, words] of found) if (texts.some((t) => holds(t, words))) found.delete(field);
  // Words the started capability's own words fit ("the full amount" of a payment) are its own.
  const named = new Map<string, string[]>();
  for (const [field, words] of found)
    if (!(await search(words.join(" "))).some((h) => h.capability === startedId && !h.topic_only))
      named.set(field, words);
  if (!named.size) return { asks: [...asks], elsewhere: [] };
  const elsewhere: FieldElsewhere[] = [];
  const kept: OtherAsk[] = [];
  const said = new Set<string>();
  for (const ask of asks) {
    const field = [...named].find(([, words]) => holds(ask.words, words));
    if (!field) {
      kept.push(ask);
      continue;
    }
    const [name, words] = field;
    const taker = await fieldTaker(ask, name, words, startedId, search);
    if (!taker) {
      kept.push(ask);
      continue;
    }
    said.add(name);
    elsewhere.push(line(ask.words, name, taker));
  }
  for (const [name, words] of named) {
    if (said.has(name) || asks.some((a) => holds(a.words, words))) continue;
    const taker = takerOf(await search(words.join(" ")), name, startedId, words);
    if (taker) elsewhere.push(line(words.join(" "), name, taker));
  }
  return { asks: kept, elsewhere };
}

/**
 * The capability an other ask's field words name a field of, where the ask is only that field:
 * its best match takes the field and fits no more without the words (or no capability does the
 * ask, and the words alone fit one that takes it). An ask of another capability (a note about
 * the voucher) is that capability's, and stays.
 */
async function fieldTaker(
  ask: OtherAsk,
  field: string,
  words: readonly string[],
  startedId: string,
  search: Search,
): Promise<AnyCapability | undefined> {
  if (!ask.capability) return takerOf(await search(words.join(" ")), field, startedId, words);
  const best = capabilityRegistry().get(ask.capability);
  if (!best || ask.capability === startedId || namesAct(best, words)) return undefined;
  if (!describeInputs(best).some((i) => i.field === field)) return undefined;
  const rest = without(ask.words, words);
  const fits = rest ? takerOf(await search(rest), field, startedId, []) : undefined;
  return fits?.id === ask.capability ? undefined : best;
}

function line(words: string, field: string, taker: AnyCapability): FieldElsewhere {
  const kind = taker.appliesTo.field ? undefined : kindWord(taker.appliesTo.entity);
  return { words, field, taken_by: taker.id, ...(kind ? { new_record: kind } : {}) };
}

/**
 * The words of a relative clause right after the record's noun ("my kettle order that's waiting
 * for payment to my home"): they say which record, up to a mark or a word that says where or how
 * it changes. Set AL: "waiting for payment" was said as a payment not done.
 */
function relativeClauseWords(intent: string, noun: string): string[] {
  if (!noun) return [];
  const m = new RegExp(
    `\\b${noun}s?\\s+(?:that|which|who)(?:['’]s|\\s+is|\\s+are|\\s+was|\\s+were)?\\s+([^,.;:!?]*?)(?=\\s+(?:to|instead|into|onto|back)\\b|[,.;:!?]|$)`,
    "i",
  ).exec(intent);
  return m?.[1] ? wordTokens(m[1]) : [];
}
