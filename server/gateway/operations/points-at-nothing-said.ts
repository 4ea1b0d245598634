import type { CapabilityHit } from "../../engine/capability-search";
import { requestWords } from "../../engine/request-words";
import { askSpans } from "./ask-spans";
import { askAlone, namesOwnRecord, namesRecordIn } from "./own-ask-words";
import { kindWord, ONE_DESCRIBED, pointsBack } from "./points-back";

/** Said after the message of a change held because its ask names no record of its own. */
export const HELD_RECORD =
  " — not run yet: its own words point back at a record nothing before them names (another ask's record was taken), so check the record, then confirm_action";
/** Said after the message of a change held because its ask describes a record it does not name. */
export const HELD_DESCRIBED =
  ' — not run yet: the words describe its record without naming it ("the one that …"), so check the record, then confirm_action';
/** Said after the message of a change held because no ask of the words, read alone, is this change. */
export const HELD_NO_ASK =
  " — not run yet: the words ask several things and none of them alone is this change, so check it against the user's words, then confirm_action (or cancel_action)";

/**
 * Why the started change is held (said after its message), or null: words that ask several
 * things, where no ask alone is this change, or the started ask points back ("resolve it") at a
 * record nothing before it names and its words outside quotes name none. Review 50: "Resolve it:
 * '… the tee ticket …' and assign the headphones ticket to Sara" resolved the headphones ticket at
 * once, named only by the assignment. Such a change waits for the agent's check, never runs at
 * once on a record its ask did not name.
 */
async function pointsAtNothingSaid(
  { lower, asks: all }: ReturnType<typeof askSpans>,
  started: { capability: string; entity?: { type: string; id: string | null } },
  search: (query: string) => Promise<CapabilityHit[]>,
): Promise<string | null> {
  const asks = all.slice(0, 4);
  if (asks.length < 2 || !started.entity?.id) return null;
  const read = await Promise.all(asks.map((a) => askAlone(a.words, search)));
  const index = read.findIndex((hits) => hits[0]?.capability === started.capability);
  const own = asks[index];
  // No ask alone is this change: it was read from the words whole, its record from any ask's
  // (review 58: "Give the tee ticket to Sid and set the one that's pending to high priority"
  // set the tee ticket's status to pending at once, and neither ask was said).
  if (!own) return HELD_NO_ASK;
  // "the one that's pending": a record described, none named, and none said before is its own
  // (review 58b: "Give the tee ticket to Sid and set the one which is pending to high priority"
  // raised the tee ticket at once).
  if (ONE_DESCRIBED.test(requestWords(own.clause.text))) return HELD_DESCRIBED;
  const appliesTo = started.entity.type;
  if (namesOwnRecord(own, appliesTo) || !pointsBack(requestWords(own.clause.text))) return null;
  // A record said before the ask, in an ask or not ("I don't want tkt_2 to wait, make it …").
  return own.at < 0 || !namesRecordIn(requestWords(lower.slice(0, own.at)), appliesTo) ? HELD_RECORD : null;
}

/**
 * Why a start by words that would run at once is held (said after its message), or null: its
 * record only described ("the one that …"), or read from another ask's words.
 */
export async function recordHeld(
  intent: string,
  out: Record<string, unknown>,
  ownAsk: number | undefined,
  search: (query: string) => Promise<CapabilityHit[]>,
): Promise<string | null> {
  if (typeof out.capability !== "string") return null;
  const entity = out.entity as { type: string; id: string | null } | undefined;
  // Only a record read from the words: one the agent sent (entity_id) is its pick, as before.
  const fromWords = Object.values((out.from_words ?? {}) as Record<string, unknown>);
  if (!entity?.id || !fromWords.some((v) => typeof v === "string" && v.startsWith(entity.id ?? "")))
    return null;
  // A record its ask only describes ("the one that nobody has touched") was picked by what its
  // text shares with the words: checked before it runs (review 58d: "has" picked one).
  const spans = askSpans(intent, kindWord(entity.type));
  const { asks } = spans;
  const own = ownAsk !== undefined ? asks[ownAsk]?.clause.text : asks.length < 2 ? intent : undefined;
  if (own !== undefined && ONE_DESCRIBED.test(requestWords(own))) return HELD_DESCRIBED;
  // A start reading its own ask's words (own-ask-words.ts) took a record those words name.
  if (ownAsk !== undefined) return null;
  return pointsAtNothingSaid(spans, { capability: out.capability, entity }, search);
}
