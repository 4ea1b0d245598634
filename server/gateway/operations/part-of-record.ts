import type { OutcomeBase } from "../../connectors/sdk/outcome";
import { maskQuotes } from "../../engine/mask-quotes";

/** Said after the message of a whole-record change held because the words ask to take a part from the record. */
export function heldForPart(part: string, noun: string): string {
  return ` — not run yet: the words ask to take "${part}" from the ${noun}, and this change acts on the whole ${noun}; ask the user whether they mean that, then confirm_action (or cancel_action)`;
}

/** Pronouns and words that name the record itself, not a part of it. */
const THE_RECORD = /^(?:it|this|that|them|these|those|one|all|everything)$/;

/**
 * "‹verb› ‹a part› from / off / out of ‹the record›" as the words' first ask ("drop the ‹part›
 * from my ‹record›", "take the ‹part› off my ‹record›"). Review 62b: the first cancelled an unpaid
 * order at once (its only field is the order, "drop" is the cancel's word), where the user asked to
 * take a part off it. A change that takes nothing but its record, needing no person's approval, waits
 * for the user's word instead. Null where the part is the record itself ("drop the order from my
 * list" names it) or the words name no such part.
 */
export function partOfRecordHeld(
  intent: string | undefined,
  out: OutcomeBase & Record<string, unknown>,
): string | null {
  if (!intent) return null;
  const entity = out.entity as { type?: unknown } | undefined;
  const noun = typeof entity?.type === "string" ? entity.type.toLowerCase() : "";
  if (!noun) return null;
  // Only a change whose one input is its record: a part named can fill no field of it.
  const inputs = Array.isArray(out.inputs) ? (out.inputs as Array<{ field?: unknown }>) : [];
  if (inputs.length !== 1) return null;
  const { masked } = maskQuotes(intent.toLowerCase());
  for (const clause of masked.split(/[.;!?\n]+/)) {
    const said = partAndRecord(clause.trim());
    if (!said) continue;
    const part = said.part.replace(/^(?:the|my|a|an|our|your|this|that)\s+/, "").trim();
    const partWords = part.split(/\s+/);
    // The record itself, or one named by its id, is no part of it ("drop ord_… from my orders").
    if (!part || partWords.some((w) => w === noun || w === `${noun}s` || ID.test(w))) continue;
    if (partWords.every((w) => THE_RECORD.test(w))) continue;
    // Taken from one record: its name or id after the preposition, not a list of them ("from my orders").
    const after = said.record.split(/[^a-z0-9_]+/);
    if (after.some((t) => t === `${noun}s` || LIST.test(t))) continue;
    if (!after.some((t) => t === noun || ID.test(t))) continue;
    return heldForPart(part.slice(0, 40), noun);
  }
  return null;
}

/** A record's id as people paste it (`ord_pending`, `tkt_5`). */
const ID = /^[a-z]{2,8}_[a-z0-9_]+$/;
/** Words naming a list of records, not one. */
const LIST = /^(?:list|lists|history|account|queue|records)$/;

/** Greetings, courtesies and wanting before the verb ("Hi! …", "Hey, …", "I'd like to …", "could you …"). */
const LEAD =
  /^(?:(?:hi|hey|hello|thanks|thank you|ok|okay|so|also|and|then)\b[\s,!]*)*(?:(?:please|just|now|kindly)\s+)?(?:(?:i'?d like|i would like|i want|i need|can you|could you|would you|will you)\s+(?:to\s+)?)?(?:please\s+)?/;
/** Where the part is taken from: "from", "off (of)", "out of", "on", "in", "for", "applied to". */
const FROM = "from|off(?:\\s+of)?|out\\s+of|on|in|for|applied\\s+to";

/**
 * The part a clause asks to take and the record it names after the preposition: "‹verb› ‹part›
 * from ‹record›", or the record first ("from my ‹record›, ‹verb› the ‹part›"). Null otherwise.
 */
function partAndRecord(clause: string): { part: string; record: string } | null {
  const first = /^from\s+(.{1,60}?),\s*(?:please\s+)?[a-z]+\s+(.{1,60})$/.exec(clause);
  if (first?.[1] && first[2]) return { part: first[2], record: first[1] };
  const rest = clause.replace(LEAD, "");
  const said = new RegExp(`^[a-z]+\\s+(.{1,60}?)\\s+(?:${FROM})\\s+(.+)$`).exec(rest);
  return said?.[1] && said[2] ? { part: said[1], record: said[2] } : null;
}
