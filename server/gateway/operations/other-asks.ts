import type { CapabilityHit } from "../../engine/capability-search";
import { wordTokens } from "../../engine/choice-words";
import { topicBeforeColon } from "../../engine/colon-topic";
import { requestWords } from "../../engine/request-words";
import { opensOrder } from "../../engine/told-content";
import { POINTING_WORDS } from "../../function-words";
import { countOfWord } from "../../number-words";
import { askSpans } from "./ask-spans";
import { nearTied } from "./pick-by-held-value";
import {
  DETERMINER_WORDS,
  describesOwnRecord,
  isKindWord,
  kindWord,
  namesRecordAfterPreposition,
  pointsBack,
  RELATIVE_VERBS,
} from "./points-back";
import { saysKindBare } from "./says-kind-bare";

/**
 * An ask of the user's words that the started action does not do: the capability its own words
 * fit best and the record they name, or none when no capability does it.
 */
export interface OtherAsk {
  words: string;
  capability?: string;
  entity_id?: string;
  /** The record came from a pointing word ("it"): the call's words name it, as the user's did. */
  pointed?: true;
  /** The capability cannot take the record now (its start would refuse it): no call is offered. */
  not_now?: true;
  /** Why, where its preview said it and no record id is known (the record its words named). */
  why?: string;
  /** Its capability may need nobody's approval (never, or on a condition): it may run in the same call (other-asks-run.ts). */
  unapproved?: true;
  /** It says an ask again on a record its words do not pick ("and the other one too"): the user says which; never run. */
  unclear?: true;
  /** The fields its start would still ask for (its preview's missing): said with its call, to send at once. */
  needs?: string[];
  /** The matches its words tie with its capability (within the clear lead): read on, never said (held-value-asks.ts). */
  near?: string[];
}

/** Searches capabilities for words, as the caller may see them (the search operation, audited). */
type Search = (query: string) => Promise<CapabilityHit[]>;

/**
 * The capabilities among `only` whose start on the words (on `record`, else the one they name)
 * takes a value its record holds now, said by its own words (held-values-named.ts).
 */
export type Holders = (
  words: string,
  record: string | undefined,
  only: readonly string[],
) => Promise<string[]>;

/** The action a start made, as the other asks of its words are read against it. */
export interface StartedAsk {
  capability: string;
  entity?: { type: string; id: string };
  /** The capability its words matched, where that one's refusal started this one instead (instead-of-refused.ts). */
  askedAs?: string;
  /**
   * The ask whose words alone the start read (own-ask-words.ts, its index among askSpans'): that
   * ask is the one it does, and every other is another, on the record its own words name.
   */
  ownAsk?: number;
}

/** A record id as written: a prefix, an underscore and the rest ("abc_2", "xyz_late"). */
export const ID_SHAPE = /\b[a-z][a-z0-9]*_[a-z0-9]+\b/i;

/**
 * The asks of `intent` besides the one the started capability does. Issue 23: "make X high
 * priority and give it to Y" changed the priority and answered "flow finished", the assignment
 * silently dropped. Each clause that asks (clause splitter) is scored alone (the capability
 * search); one the started capability matches on a word it asks with (no mere topic match) is
 * what the action does. Only words with an ask the action does are read so: where no
 * single ask is the started capability's, it answered the words as a whole (several clauses
 * filling one purchase), and nothing is said to be left. A clause that only reads ("find …") sets
 * the scene for the change, no ask of its own.
 */
export async function otherAsks(
  intent: string,
  started: StartedAsk,
  search: Search,
  setWords: readonly string[] = [],
  holders?: Holders,
): Promise<{ asks: OtherAsk[]; more: number }> {
  const { lower, asks: all } = askSpans(intent, started.entity && kindWord(started.entity.type));
  if (all.length < 2) return { asks: [], more: 0 };
  // Each ask read costs up to two audited searches, run at once: a review sent 31 asks in one
  // start and got 31 searches and 30 next steps. The first few are read; the rest said as a count.
  const asks = all.slice(0, MAX_OTHER_ASKS + 1);
  const more = all.length - asks.length;
  const spans = asks.map(({ at, end }) => ({ at, end }));
  const read = await Promise.all(
    asks.map(async ({ clause, words: said, repeats, topic: saidTopic }, i) => {
      const { words, topic } = saidTopic ? { words: said, topic: saidTopic } : topicBeforeColon(said);
      // The ask's own words: an id or an "it" inside the text it quotes ("add a note: 'sent it to
      // abc_5'") names no record of the ask.
      const own = requestWords(words);
      // Its topic ("Jo's billing problem: set the case to pending") says which record it
      // is about: the one its id names, else one its words pick, never the sentence's (a review).
      const ownId = own.match(ID_SHAPE)?.[0];
      const named = ownId ?? topic?.match(ID_SHAPE)?.[0];
      // An ask said again names another record than the one it repeats: never the started one.
      // "The ticket" said bare points back as "it" does (says-kind-bare.ts).
      const ownHead = askHead(own) ?? own;
      const kind = started.entity && kindWord(started.entity.type);
      const points =
        !repeats &&
        !topic &&
        !describesOwnRecord(requestWords(clause.text), kind) &&
        !namesRecordAfterPreposition(requestWords(clause.text), kind) &&
        (pointsBack(requestWords(clause.text), true) ||
          (!named &&
            !!started.entity &&
            (leavesRecordUnsaid(ownHead, started.entity.type) || saysKindBare(ownHead, kind))));
      const record = named ?? (points ? started.entity?.id : undefined);
      // The record's id beside the words names its kind, as start_action by words reads it; it
      // ranks what the words match, never makes a match of its own (review 65b: "…, no later
      // than today" beside ord_pending matched the unpaid order's cancel by the id's "pending").
      const fitting = async (text: string) => {
        const shown = (hits: CapabilityHit[]) =>
          hits.filter((h) => !h.not_for?.length && !h.topic_only && !h.off_topic);
        if (!record || ownId) return shown(await search(text));
        const [withId, alone] = await Promise.all([search(`${text} ${record}`), search(text)]);
        const matched = new Set(alone.filter((h) => h.score > 0).map((h) => h.capability));
        return shown(withId).filter((h) => matched.has(h.capability));
      };
      const hits = await fitting(words);
      // What the ask is, read without the text it carries ("add a note that the priority was
      // raised" is a note, whatever its text says).
      const head = askHead(words);
      const headHits = head ? await fitting(head) : [];
      const asked = headHits.length ? headHits : hits;
      const best = asked[0];
      const near = nearTied(asked)
        .filter((h) => h !== best)
        .map((h) => h.capability);
      // Words no capability does that set a field of the action ("…, from my store credit": its
      // payment method) are the action's own detail, not an ask left undone.
      // A clause whose every word sets a field is detail even where another capability's words
      // fit it too ("Buy one mug, express to my office": not an address change).
      const done =
        started.ownAsk !== undefined
          ? started.ownAsk === i
          : !repeats &&
            (covers(started, [...hits, ...headHits], best, record, named) ||
              settingShare(words, setWords) >= (best ? 1 : 0.5));
      // "…, and take Y off it" beside a status change its "off hold" matched: where only another
      // near match takes a field whose value there the words name (Y holds the record), the ask
      // is that one's, never done by the started action (set BR: it went unsaid).
      const held =
        done && best && near.length && holders
          ? await holders(words, record, [best.capability, ...near])
          : [];
      const other =
        held.length === 1 && held[0] !== started.capability && held[0] !== started.askedAs
          ? asked.find((h) => h.capability === held[0])
          : undefined;
      if (other)
        return {
          words,
          best: other,
          near: [],
          byHeld: true,
          done: false,
          record,
          named,
          points,
          repeats,
          topic,
        };
      return { words, best, near, byHeld: false, done, record, named, points, repeats, topic };
    }),
  );
  // An ask said again that no capability's words fit alone is still the ask it repeats: its call
  // is that one's ("…, same for the late delivery ticket" is a priority change too).
  for (const r of read) if (r.repeats && !r.best) r.best = read[r.repeats.of]?.best;
  // An action that has not settled its record yet ("resolve tkt_4 and resolve tkt_5" quotes two)
  // does one of them: the first ask's record; an ask of the same capability on another is another.
  const first = started.entity?.id ? undefined : read.find((r) => r.done && r.named)?.named;
  for (const r of read) if (first && r.done && r.named && r.named !== first) r.done = false;
  if (!read.some((r) => r.done)) return { asks: [], more: 0 };
  const doneAt = read.findIndex((r) => r.done);
  const left = read.map((r, i) => ({ ...r, i })).filter((r) => !r.done);
  const others = left
    .map(({ words: own, best, record, named, points, repeats, topic, byHeld, i }): OtherAsk => {
      // Said with its topic, so that the call's words pick the record the user's did.
      const words = topic ? `${topic}: ${own}` : own;
      if (!best) return { words };
      // A topic that names no record by its id leaves which one to the words: the call is
      // offered with them and no record, never run here on a guess.
      if (topic && !named) return { words, capability: best.capability };
      // "And the other one too": which record is the user's to say; its call is offered, never run.
      if (repeats?.unclear) return { words, capability: best.capability, unclear: true };
      // "It" past another record the words name ("do X to A, and as for B, give it to Y") may
      // mean that one: the ask keeps its call, with no record and never run at once (review 49).
      if (points && !named && started.entity && pointsPast(lower, spans, doneAt, i, started.entity))
        return { words, capability: best.capability };
      // Only an ask made for now may run in this call: a question ("should we …?") or an ask
      // for later ("tomorrow …") keeps its call for the user to say (review 49).
      // Review 52: nor one its sentence asks as a question ("should we set it to pending, or
      // leave it open?"), nor one said with a hedge or a condition before it ("maybe …", "and if
      // you can't, …").
      const span = spans[i];
      const sentence = span && span.end >= 0 ? lower.slice(span.end).match(/[.!?]/)?.[0] : undefined;
      const lead = span && span.at >= 0 ? lower.slice(Math.max(spans[i - 1]?.end ?? 0, 0), span.at) : "";
      // Nor one whose words name something before a colon and order after it ("problem with
      // abc_1: set it to pending"): which of the two is the ask is a guess (review 52d: its
      // "problem" resolved abc_1 with "set it to pending" as the resolution).
      const colon = /:\s/.exec(words);
      const ordersAfterColon =
        !!colon &&
        opensOrder(
          words
            .slice(colon.index + 1)
            .trim()
            .toLowerCase(),
        );
      const now =
        !LATER.test(requestWords(words)) &&
        sentence !== "?" &&
        !HEDGED.test(`${lead} ${requestWords(words)}`) &&
        !ordersAfterColon;
      // An ask read as another capability's by the value its record holds is offered, never run
      // here: its words tied the match it was read from (review 61c).
      const alone = !byHeld && best.requires_approval !== true && now ? { unapproved: true as const } : {};
      // A pointing word means the started record only where the capability is for its kind.
      const sameKind = !record || record !== started.entity?.id || best.applies_to === started.entity.type;
      if (!record || !sameKind) return { words, capability: best.capability, ...alone };
      return {
        words,
        capability: best.capability,
        ...alone,
        entity_id: record,
        ...(record !== named ? { pointed: true as const } : {}),
      };
    })
    .map((a, k) => {
      const near = left[k]?.near ?? [];
      return a.capability && near.length ? { ...a, near } : a;
    });
  return { asks: others, more };
}

/**
 * Whether the words before the pointing ask `i` (after the started change's own ask, or from the
 * start where the ask comes first) name another record than the started one: a word of its kind
 * (the last word of its type's name, "case" for a SupportCase) or another record's id. Unsure (an
 * ask not found in the words) counts as naming one.
 */
function pointsPast(
  lower: string,
  spans: readonly { at: number; end: number }[],
  doneAt: number,
  i: number,
  entity: { type: string; id: string },
): boolean {
  const ask = spans[i];
  const own = spans[doneAt];
  if (!ask || ask.at < 0 || !own || own.end < 0) return true;
  const gap = lower.slice(i > doneAt ? own.end : 0, ask.at);
  const kind = kindWord(entity.type);
  const ids = gap.match(new RegExp(ID_SHAPE.source, "gi")) ?? [];
  return (
    (!!kind && new RegExp(`\\b${kind}s?\\b`).test(gap)) ||
    // Review 52: "as for the charged twice one, set the ticket to pending" names another by "one".
    /\b(?:the|that|this)\s+(?:[\p{L}\p{N}_]+\s+){1,4}one\b/u.test(gap) ||
    ids.some((id) => id.toLowerCase() !== entity.id.toLowerCase())
  );
}

/**
 * Whether an ask's words (without the text it carries) leave its record unsaid, as a second ask
 * of one sentence does ("give the blue case to Y and add an internal note: '…'", "… and make
 * urgent"): the record is the one the sentence is about, as a pointing word would make it. Not
 * where its words pick any thing (a determiner, "other", "one", the record's kind: "close the
 * blue case", "set the priority …"): those stay unread, as before.
 */
function leavesRecordUnsaid(head: string, type: string): boolean {
  const words = head.toLowerCase().match(/\p{L}+/gu) ?? [];
  const kind = kindWord(type);
  // English grammar: words with no determiners (Chinese) say nothing of what they pick.
  return (
    words.length > 0 &&
    !/[\u3400-\u9fff]/.test(head) &&
    !ID_SHAPE.test(head) &&
    // A possessive picks as "my" does ("Jo's order"): a review saw it pinned to the started record.
    !/\p{L}['’]s\b/u.test(head) &&
    !words.some((w) => PICKING.has(w) || isKindWord(w, kind))
  );
}

/** Words that pick a thing already there (a record, or a field of one): the ask names what it acts on. */
const PICKING = new Set([
  ...DETERMINER_WORDS,
  "one",
  "ones",
  "both",
  "all",
  "each",
  "every",
  "which",
  "same",
  ...POINTING_WORDS,
]);

/**
 * The share of a clause's words that set the action's fields: half is enough where no capability
 * fits it (what is left is how it is said: "use", "pay it"), all where another's words fit too.
 */
function settingShare(words: string, setWords: readonly string[]): number {
  // "Only the mugs", "just the lamp": words that narrow what the action takes say which, not
  // what (set I: "Only the mugs" after a purchase of mugs was offered as a return of mugs).
  // A count ("one mug", "2 tees") says how many of what the action takes, not what.
  // "…, paid by card": a past participle says how the ask before is done; what follows it is the
  // clause's say (set BG: "paid" was read as an after-sales request). "…, marked with urgent
  // priority" still asks where those words set no field of the action (review 59c).
  // "Send it to my home", "ship them by express": a verb on what the action makes or changes
  // ("it") says how, and the words after it say which value (set CW: "buy what's in my cart; send
  // it to my home" was offered as an address change too). The verb is not the clause's say.
  const how = VERB_ON_IT.test(words) ? words.replace(VERB_ON_IT, "") : words;
  const own = wordTokens(how.replace(PARTICIPLE_HOW, "")).filter((t) => !NARROWING.has(t) && !countOfWord(t));
  return own.length ? own.filter((t) => setWords.includes(t)).length / own.length : 0;
}

/**
 * A clause's opening past participle and the preposition of how: "paid by", "paid from". Not "to",
 * "into" or "on": "Give tkt_1 to Sara, moved to shipping" (review 60) and "…, moved on to shipping"
 * (review 60c) dropped the move, "shipping" being a word of the teammate's name "Sara Shipping".
 */
const PARTICIPLE_HOW =
  /^\s*(?:\p{L}{2,}(?<!e)ed|paid|sent|bought|made|given|taken|done|kept|sold|held|brought|told)\s+(?:by|with|via|using|through|from|out\s+of)\s+/iu;

/** A clause's opening verb and the "it" or "them" it acts on: "send it", "please ship them". */
const VERB_ON_IT = /^\s*(?:please\s+)?\p{L}+\s+(?:it|them)\b/iu;

/** Words that put an ask off to later or make it hang on something: not an ask for now. */
const LATER =
  /\b(tomorrow|tonight|later|next|after|afterwards|when|whenever|once|if|unless|until|till|eventually|someday)\b/i;

/** Words that make an ask a suggestion or hang it on something: never run on its own. */
const HEDGED = /\b(if|unless|maybe|perhaps|possibly|probably|should|whether|in case|or not)\b/i;

/** Words that narrow a clause to what it names: "only", "just", "nothing else", "no other". */
const NARROWING = new Set(["only", "just", "solely", "nothing", "else", "no", "other", "except"]);

/** How many asks besides the started one are read and named, each with its call. */
const MAX_OTHER_ASKS = 3;

/**
 * Whether the started action does what one ask's words ask, not merely shares a word with it:
 * the ask names no other record than the action's ("resolve tkt_5" beside "resolve tkt_4" is a
 * second resolve), and the capability that ran is the ask's own best match. One exception keeps
 * a detail of the action its own: where the action makes a new record and the ask names none,
 * its words matching the started capability suffice ("ship it to my office" beside "buy
 * everything in my cart" is the purchase's address, not an address change).
 */
function covers(
  started: StartedAsk,
  hits: CapabilityHit[],
  best: CapabilityHit | undefined,
  record: string | undefined,
  named: string | undefined,
): boolean {
  if (named && started.entity?.id && named !== started.entity.id) return false;
  // A start made in place of the one its words matched (its refusal named it) does that ask:
  // "close the headphones ticket", open, is resolved instead (played: the assignment asked
  // beside it went unsaid).
  const does = (c: string | undefined) => c === started.capability || (!!c && c === started.askedAs);
  if (!hits.some((h) => does(h.capability))) return false;
  if (!record && !started.entity?.id) return true;
  return does(best?.capability);
}

/** Where the text an ask carries begins: its colon, its quote, or a "that"/"saying" opening a message. */
const MESSAGE_OPENS = new RegExp(
  `:\\s|\\s["'“‘«]|\\s(?:that(?!\\s+(?:${RELATIVE_VERBS.replaceAll(" ", "|")})\\b)|saying|to say)\\s`,
  "i",
);

/**
 * The ask without the text it carries for a field: what comes before its colon, its quote, or the
 * "that …"/"saying …" that opens a message ("add a note that the bank confirmed" → "add a note").
 * A relative "that" describes the record, no message ("cancel my order that is waiting for
 * payment": played, "cancel my order" alone matched the refund of a paid one).
 * Null when nothing is cut, or too little would be left to ask anything.
 */
export function askHead(words: string): string | null {
  const cut = MESSAGE_OPENS.exec(words);
  if (!cut) return null;
  const head = words.slice(0, cut.index).trim();
  return head.split(/\s+/).length >= 2 ? head : null;
}
