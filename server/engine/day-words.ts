import { type ChoiceRow, rowAge } from "./choice-words";

/**
 * Words that place a record in time from now ("the order I placed today", "yesterday's ticket"),
 * with how far back each may reach. The server does not know the person's time zone, so each
 * reaches as far as that day can for someone anywhere: a record created today, wherever the user
 * is, was created within the last 24 hours; yesterday, within the last 48. A record outside that
 * reach is certainly not meant; one inside may still not be, so these words only ever narrow (the
 * record that fits is picked only when it is the one that does, and the why shows its time).
 * Played (issue 23, rounds 17–19): "cancel the order I placed today" listed every order to ask
 * the user which, though only one was minutes old.
 */
const REACH_H: Record<string, number> = { today: 24, tonight: 24, yesterday: 48 };

/** A clock skew between the record's system and ours that still counts as now. */
const SKEW_MS = 5 * 60_000;

/**
 * Whether the row was created within the reach of this day word: undefined when the word is no
 * day word or the row carries no creation time to tell by.
 */
export function dayOf(row: ChoiceRow, word: string, now: number = Date.now()): boolean | undefined {
  const reach = REACH_H[word];
  if (reach === undefined) return undefined;
  const at = Date.parse(rowAge(row) ?? "");
  if (Number.isNaN(at)) return undefined;
  return at <= now + SKEW_MS && now - at <= reach * 3_600_000;
}
