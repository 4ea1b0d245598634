import type { CapabilityHit } from "../../engine/capability-search";
import { requestWords } from "../../engine/request-words";
import { type AskSpan, askSpans } from "./ask-spans";
import { askHead, ID_SHAPE } from "./other-asks";
import { isKindWord, kindWord, namesRecordAfterPreposition, ONE_DESCRIBED, pointsBack } from "./points-back";

/** Searches capabilities for words, as the caller may see them (the search operation, audited). */
type Search = (query: string) => Promise<CapabilityHit[]>;

/** The asks read for a start (the first few, as other-asks.ts reads them: the same searches). */
const MAX_ASKS = 4;

/**
 * The best match of one ask's words searched alone, as the other-asks reading finds it: without
 * the text it carries where that leaves an ask ("add a note: '…'" is a note), and only among the
 * capabilities it is for (no "not for", topic-only or off-topic match).
 */
export async function askAlone(words: string, search: Search): Promise<CapabilityHit[]> {
  const fitting = async (text: string) =>
    (await search(text)).filter((h) => !h.not_for?.length && !h.topic_only && !h.off_topic);
  const head = askHead(words);
  const headHits = head ? await fitting(head) : [];
  return headHits.length ? headHits : fitting(words);
}

/**
 * Whether an ask's own words name the record it acts on, of the kind a capability applies to:
 * its id, the kind's word ("the headphones ticket") or "one" in its place ("the headphones one"),
 * and no word pointing back at one named before ("resolve it"). Text the ask carries names
 * nothing ("add a note: 'see tkt_5'").
 */
export function namesOwnRecord(ask: AskSpan, appliesTo: string): boolean {
  const own = requestWords(ask.clause.text);
  // "the one that's urgent" says which by its own clause: the start reads it from these words,
  // never from another ask's (review 58c: "Give the headphones ticket to Sara and set the one
  // that's urgent to low priority" took the headphones ticket, and the advance lowered it).
  if (ONE_DESCRIBED.test(own)) return true;
  if (namesRecordAfterPreposition(own, kindWord(appliesTo))) return true;
  return !pointsBack(own) && namesRecordIn(own, appliesTo);
}

/** Whether words (quotes left out) name a record of this kind: its id, its kind's word, or "the … one". */
export function namesRecordIn(own: string, appliesTo: string): boolean {
  const kind = kindWord(appliesTo);
  const words = own.toLowerCase().match(/\p{L}+/gu) ?? [];
  return ID_SHAPE.test(own) || ONE_NAMED.test(own) || words.some((w, i) => i > 0 && isKindWord(w, kind));
}

/** "One" standing for a record its words describe ("the headphones one"), never a count ("one mug"). */
const ONE_NAMED =
  /\b(?:the|my|our|your|their|this|that)\s+(?:[\p{L}\p{N}-]+\s+){1,3}ones?\b(?!\s+(?:of|more)\b)/iu;

/**
 * The words of the one ask a start by words does, where the words ask several things and each
 * names its own record: that ask's own words (with the text it carries, and for the first, the
 * scene set before it), which the start reads its record and fields from. Played: "Assign the
 * wrong size tee ticket to Sid and resolve the headphones ticket: parcel found" resolved the tee
 * ticket, read from the assignment's words, and said it was "the only one that fits". `index` is
 * the ask's among askSpans': the other-asks reading takes it as the one done (other-asks.ts).
 * Undefined where no ask alone is this capability's, where its own words do not name its record
 * ("resolve it": the sentence names it), or where no other ask names one (a detail of the same
 * change, "buy a mug, express to my office", stays its own: the whole words are read, as before).
 */
export async function ownAskWords(
  intent: string,
  chosen: Pick<CapabilityHit, "capability" | "applies_to">,
  search: Search,
): Promise<{ words: string; index: number } | undefined> {
  const asks = askSpans(intent, kindWord(chosen.applies_to)).asks.slice(0, MAX_ASKS);
  if (asks.length < 2) return undefined;
  const read = await Promise.all(asks.map((a) => askAlone(a.words, search)));
  const bests = read.map((hits) => hits[0]);
  // The ask it is the best match of; else the one it matches at all (a verb settled a tie: "pay
  // for my kettle order and cancel my lamp order" started the cancel of unpaid orders, the best
  // of neither ask, and it cancelled the kettle order).
  const best = bests.findIndex((b) => b?.capability === chosen.capability);
  const index =
    best >= 0 ? best : read.findIndex((hits) => hits.some((h) => h.capability === chosen.capability));
  const own = asks[index];
  if (!own || own.at < 0 || !namesOwnRecord(own, chosen.applies_to)) return undefined;
  const others = asks.filter(
    (a, i) => i !== index && namesOwnRecord(a, bests[i]?.applies_to ?? chosen.applies_to),
  );
  if (!others.length) return undefined;
  // The first ask keeps the scene set before it ("The customer called back. Resolve …").
  const words = index === 0 ? `${intent.slice(0, own.writtenAt)}${own.words}` : own.words;
  return { words: words.trim(), index };
}
