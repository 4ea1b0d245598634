/**
 * An ask said again on another record, with no verb of its own: "Assign the headphones ticket to
 * Sara, and the tee ticket too", "make it urgent, same for the late delivery ticket", "cancel my
 * lamp order and also the kettle one", "give tkt_2 to Sid and tkt_4 to Sara". Issue 23: such a
 * clause opens with "the" (as a scene does) or an id, so no ask was read in it, and the answer
 * said the flow finished with one of two changes made. Pure English grammar, no business words:
 * the record's kind is the word the ask named its own record by ("ticket", "order").
 */

/** A clause that repeats the ask before it: the record it names, and the words it says of its own. */
export interface RepeatedRecord {
  /** The record as the clause writes it: "the tee ticket", "tkt_4", "the kettle one". */
  record: string;
  /**
   * What the clause says after its record in place of the ask's words there ("to Sid" in "and
   * tkt_4 to Sid", "low" in "and the tee ticket low"); empty: the ask's own words stand.
   */
  own: string;
  /** Its words pick no record by themselves ("the other one", "that one"): which one is asked. */
  unclear: boolean;
  /**
   * The ask ends at its record, carrying nothing after it ("assign the headphones ticket | and
   * the tee ticket to Sara", "resolve X | and the charged twice one: refund issued"): what the
   * clause says after its record is said of both records.
   */
  shared: boolean;
  /** Said as a repeat ("too", "as well", "also", "same for"), not only joined by "and". */
  marked: boolean;
}

/** A word of some text, where it stands. */
interface Token {
  word: string;
  at: number;
  end: number;
}

/** The record an ask names in its own words, where it stands, and the noun it is named by. */
interface AskRecord {
  at: number;
  end: number;
  /** The noun that ends its phrase ("order" of "my lamp order"); none for an id or "it". */
  noun?: string;
}

// Words that join a clause to the ask before it, and those that say it repeats that ask.
const LEAD =
  /^(?:(?:and|also|plus|likewise|as\s+well\s+as|(?:(?:and\s+)?do\s+)?(?:the\s+)?same(?:\s+thing)?(?:\s+goes)?\s+(?:for|with))\s+)+/i;
const TAIL = /(?:\s*,?\s+(?:too|as\s+well|also|likewise|please))+$/i;
const JOINING = /^(?:and|plus)$/i;
const ID = /^[a-z][a-z0-9]*_[a-z0-9]+$/i;
/** A name's possessive stands where a determiner would ("Sara's ticket"). */
const POSSESSIVE = /^\p{L}+['’]s$/u;
const DETERMINERS = new Set("the my our your their his her this that these those another".split(" "));
/** Words that pick no record by themselves beside a determiner ("the other one"). */
const PICKING_NONE = new Set(["other", "others", "same", "one", "ones", "else", "remaining", "rest"]);
/** Prepositions: a record's phrase ends before one ("the tee ticket | to Sid"). */
const PREPOSITIONS = new Set(
  "to for with from into onto as at by on in under over via back off instead".split(" "),
);
/** Words of a clause with a verb or subject of its own: it states or asks something else. */
const CLAUSAL = new Set(
  `is are was were be been being am has have had do does did will would can could should shall may
  might must want wants need needs got gets says said isn't aren't wasn't weren't hasn't haven't
  don't doesn't didn't won't can't i we you he she they it`.split(/\s+/),
);
/** How many words a record's phrase may run to after its determiner. */
const PHRASE_REACH = 6;

/**
 * Whether a clause repeats `ask` on another record: a record's phrase (an id, or a determiner and
 * words ending in the noun the ask named its record by, or "one") with no verb of its own, marked
 * as a repeat ("too", "as well", "also", "same for") or joined by "and" ("and the kettle one").
 * `before` is what joins it to the words before ("and" cut off by the clause splitter); `kind`
 * the word records of the ask's kind are called by, where known ("ticket"). Words
 * after its record replace the ask's after its own ("and tkt_4 to Sid"), where the ask has such
 * words. Undefined for anything else: a scene ("the tee ticket is fine"), an apposition ("cancel
 * my order, the lamp one": no mark, no "and"), or an ask that names no record.
 */
export function repeatedRecord(
  clause: string,
  ask: string,
  before = "",
  kind?: string,
): RepeatedRecord | undefined {
  const text = `${before.replace(/[^\p{L}\p{N}&\s]/gu, " ").trim()} ${clause}`
    .trim()
    .replace(/[.!;,\s]+$/, "");
  const lead = LEAD.exec(text)?.[0] ?? "";
  const afterLead = text.slice(lead.length);
  const tail = TAIL.exec(afterLead)?.[0] ?? "";
  const middle = afterLead.slice(0, afterLead.length - tail.length).trim();
  const leadWords = lead.trim().split(/\s+/).filter(Boolean);
  const marked = leadWords.some((w) => !JOINING.test(w)) || /too|well|also|likewise/i.test(tail);
  const joined = leadWords.some((w) => JOINING.test(w));
  if (!marked && !joined) return undefined;
  // "And ticket tkt_4 too": the id is the record, the word before it its kind's.
  const all = tokens(middle);
  const words = all.length > 1 && !ID.test(low(all[0])) && ID.test(low(all[1])) ? all.slice(1) : all;
  const first = words[0];
  if (!first || words.some((t) => CLAUSAL.has(t.word.toLowerCase()))) return undefined;
  const head = askHead(ask);
  const heads = askNouns(head);
  let end: number;
  let known: boolean;
  let noun: string | undefined;
  if (ID.test(first.word)) {
    end = 0;
    const own = tokens(head).find((t) => ID.test(t.word));
    known = !own || prefixOf(own.word) === prefixOf(first.word);
  } else if (DETERMINERS.has(low(first)) || POSSESSIVE.test(first.word)) {
    // The phrase runs to a preposition; it ends at the ask's noun or "one" where one stands in it.
    let stop = 1;
    while (stop < words.length && stop <= PHRASE_REACH && !PREPOSITIONS.has(low(words[stop]))) stop++;
    if (stop < 2) return undefined;
    const ofKind = (w: string) => isOne(w) || heads.has(w) || w === kind;
    let at = stop - 1;
    while (at > 1 && !ofKind(singular(low(words[at])))) at--;
    known = ofKind(singular(low(words[at])));
    end = known ? at : stop - 1;
    noun = singular(low(words[end]));
  } else return undefined;
  const recordEnd = words[end] as Token;
  const record = middle.slice(first.at, recordEnd.end);
  const own = middle.slice(recordEnd.end).trim();
  // The record must be of the ask's kind ("refund my order and the shipping too" names no other
  // order), unless the ask named its own by an id or "it" and the clause is marked as a repeat.
  if (!known && (!marked || heads.size > 0 || ID.test(first.word))) return undefined;
  const found = askRecord(head, { id: ID.test(first.word) ? first.word : undefined, noun, kind });
  if (!found) return undefined;
  if (sameWords(head.slice(found.at, found.end), record)) return undefined;
  // Nothing but a determiner, "other" or "one" and the kind's noun: no record is picked by it.
  const describing = words
    .slice(POSSESSIVE.test(first.word) ? 0 : 1, end + 1)
    .map(low)
    .filter((w) => !PICKING_NONE.has(w) && singular(w) !== found.noun && singular(w) !== noun);
  const unclear = !ID.test(first.word) && describing.length === 0;
  const shared = head.length === ask.trimEnd().length && !tokens(head.slice(found.end)).length;
  if (own && !(known && ownFits(own, head.slice(found.end)))) return undefined;
  return { record, own, unclear, shared, marked };
}

/**
 * The ask's words said on the repeating clause's record: "Assign the headphones ticket to Sara"
 * and "the tee ticket" → "Assign the tee ticket to Sara"; "one" takes the ask's noun ("the kettle
 * one" → "the kettle order"); its own words replace the ask's after its record ("to Sid"). The
 * text the ask carries after its colon stays ("Resolve X: refund issued" → "Resolve Y: refund
 * issued"). `kind`: the word records of the ask's kind are called by, where known ("ticket").
 * Undefined where the ask names no record to put it in place of.
 */
export function repeatAsk(askWords: string, repeated: RepeatedRecord, kind?: string): string | undefined {
  const head = askHead(askWords);
  const words = tokens(repeated.record);
  const last = words[words.length - 1];
  const id = words.length === 1 && last && ID.test(last.word) ? last.word : undefined;
  const noun = id || !last ? undefined : singular(low(last));
  const found = askRecord(head, { id, noun: noun && isOne(noun) ? kind : noun, kind });
  if (!found) return undefined;
  let record = repeated.record;
  const named = found.noun ?? kind;
  if (last && named && isOne(low(last)))
    record = `${repeated.record.slice(0, last.at)}${named}${low(last) === "ones" ? "s" : ""}`;
  let rest = askWords.slice(found.end);
  if (repeated.own) {
    const after = head.slice(found.end);
    const prep = tokens(repeated.own)[0];
    const from =
      prep && PREPOSITIONS.has(low(prep)) ? tokens(after).find((t) => low(t) === low(prep)) : undefined;
    rest = `${after.slice(0, from ? from.at : 0)} ${repeated.own}${askWords.slice(head.length)}`;
  }
  return `${askWords.slice(0, found.at)}${record}${rest}`.replace(/\s+/g, " ").trim();
}

/** Whether words the clause says after its record can take the place of the ask's after its own. */
function ownFits(own: string, askAfter: string): boolean {
  const mine = tokens(own);
  const theirs = tokens(askAfter);
  const first = mine[0];
  if (!first) return true;
  // Nothing after the ask's record: the words are said of both ("X and Y to Sara").
  if (PREPOSITIONS.has(low(first))) return !theirs.length || theirs.some((t) => low(t) === low(first));
  // One word for one ("make X urgent and Y low"), never a past form that states ("… arrived").
  return mine.length === 1 && theirs.length <= 1 && !/ed$/i.test(first.word);
}

/** The ask without the text it carries: what comes before its colon or its quote. */
function askHead(ask: string): string {
  const cut = /:\s|\s["'“‘«]|[\ue000-\uf8ff]/.exec(ask);
  return cut ? ask.slice(0, cut.index) : ask;
}

/** The nouns that may end the phrase an ask names a record by: words after a determiner. */
function askNouns(head: string): Set<string> {
  const words = tokens(head);
  const nouns = new Set<string>();
  words.forEach((t, i) => {
    if (!DETERMINERS.has(low(t))) return;
    for (let j = i + 1; j < words.length && j <= i + PHRASE_REACH; j++) {
      const w = low(words[j]);
      if (PREPOSITIONS.has(w) || CLAUSAL.has(w) || DETERMINERS.has(w)) break;
      nouns.add(singular(w));
    }
  });
  return nouns;
}

/**
 * Where the ask names its record: an id (of the clause's id's kind first), the phrase ending in
 * the noun the clause names ("the headphones ticket") or the kind's, or "it". For a clause naming
 * its record by an id or "one" (no noun of its own), also a phrase of a determiner and the words
 * before a preposition or the end ("my lamp order"): never for a noun the ask does not say ("give
 * it to the billing team, and the tee ticket too": the team is no ticket).
 */
function askRecord(head: string, want: { id?: string; noun?: string; kind?: string }): AskRecord | undefined {
  const words = tokens(head);
  const ids = words.filter((t) => ID.test(t.word));
  const sameId = want.id ? ids.find((t) => prefixOf(t.word) === prefixOf(want.id as string)) : undefined;
  if (sameId) return { at: sameId.at, end: sameId.end };
  for (const noun of [want.noun, want.kind]) {
    if (!noun || isOne(noun)) continue;
    const phrase = phraseEndingIn(words, (w) => singular(w) === noun);
    if (phrase) return phrase;
  }
  if (ids[0]) return { at: ids[0].at, end: ids[0].end };
  const it = words.find((t) => /^(?:it|them)$/i.test(t.word));
  if (it) return { at: it.at, end: it.end };
  if (want.noun && !isOne(want.noun)) return undefined;
  return phraseEndingIn(
    words,
    // A past form after it states ("has my lamp order | shipped"): the phrase ends before it.
    (_, next) =>
      !next || PREPOSITIONS.has(next) || CLAUSAL.has(next) || DETERMINERS.has(next) || /ed$/.test(next),
  );
}

/** The first phrase of a determiner and words whose last word ends it (`ends`: that word, and the next). */
function phraseEndingIn(
  words: readonly Token[],
  ends: (word: string, next: string | undefined) => boolean,
): AskRecord | undefined {
  for (let i = 0; i < words.length; i++) {
    if (!DETERMINERS.has(low(words[i]))) continue;
    for (let j = i + 1; j < words.length && j <= i + PHRASE_REACH; j++) {
      const w = low(words[j]);
      if (PREPOSITIONS.has(w) || CLAUSAL.has(w) || DETERMINERS.has(w)) break;
      const next = words[j + 1] ? low(words[j + 1]) : undefined;
      if (ends(w, next))
        return { at: (words[i] as Token).at, end: (words[j] as Token).end, noun: singular(w) };
    }
  }
  return undefined;
}

function tokens(text: string): Token[] {
  return [...text.matchAll(/[\p{L}\p{N}_'’-]+/gu)].map((m) => ({
    word: m[0],
    at: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
  }));
}

const low = (t: Token | undefined) => (t?.word ?? "").toLowerCase();
const isOne = (w: string | undefined) => w === "one" || w === "ones";
const prefixOf = (id: string) => id.toLowerCase().split("_")[0];
/** A noun's one form, for matching "tickets" with "ticket" (plain English "-s" only). */
const singular = (w: string) => (w.length > 3 && /[^s]s$/.test(w) ? w.slice(0, -1) : w);
const sameWords = (a: string, b: string) =>
  a.toLowerCase().replace(/\s+/g, " ").trim() === b.toLowerCase().replace(/\s+/g, " ").trim();
