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
  const entity = out.entity as { type?: unknown; field?: unknown } | undefined;
  const noun = typeof entity?.type === "string" ? entity.type.toLowerCase() : "";
  if (!noun) return null;
  // Only a change whose one input is its record: a part named can fill no field of it.
  const inputs = Array.isArray(out.inputs) ? (out.inputs as Array<{ field?: unknown }>) : [];
  if (inputs.length !== 1) return null;
  const { masked } = maskQuotes(intent.toLowerCase());
  const first = masked.split(/[.;!?\n]|,\s*(?:and|then)\b/)[0] ?? "";
  const said =
    /^\s*(?:please\s+|just\s+|now\s+)?[a-z]+\s+(.{1,60}?)\s+(?:from|off(?:\s+of)?|out\s+of)\s+(.+)$/.exec(
      first,
    );
  if (!said?.[1] || !said[2]) return null;
  const part = said[1].replace(/^(?:the|my|a|an|our|your)\s+/, "").trim();
  const words = part.split(/\s+/);
  if (!part || words.includes(noun) || words.includes(`${noun}s`) || words.every((w) => THE_RECORD.test(w)))
    return null;
  // The record is what the words take the part from: its name after "from"/"off".
  const after = said[2].split(/[^a-z0-9_]+/);
  if (!after.some((t) => t === noun || t === `${noun}s` || /^[a-z]{2,8}_[a-z0-9_]+$/.test(t))) return null;
  return heldForPart(part.slice(0, 40), noun);
}
