import { wordTable } from "../word-table";
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
const REACH_H: Readonly<Record<string, number>> = wordTable({ today: 24, tonight: 24, yesterday: 48 });

/**
 * A day word dates the record only where it says when the record came to be: right after a word
 * of its making ("the order I placed today", "the ticket opened yesterday", "from today") or as
 * its owner ("today's order"). Elsewhere it says when to act: "make the printer ticket urgent
 * today" names no ticket by its age (a review found it picked the newer of two printer tickets).
 */
export const MADE_WORDS = [
  "placed",
  "ordered",
  "bought",
  "purchased",
  "made",
  "created",
  "opened",
  "submitted",
  "filed",
  "raised",
  "logged",
  "started",
  "from",
];
// Built from the list above, code's own words (never from a request).
const MADE = new RegExp(
  `\\b(?:${MADE_WORDS.join("|")})\\s+(today|tonight|yesterday)\\b|\\b(today|tonight|yesterday)['’]s\\b`,
  "giu",
);

/** The day words that date a record in this request (see MADE). */
export function datingWords(request: string): Set<string> {
  const out = new Set<string>();
  for (const m of justMadeAsToday(request).toLowerCase().matchAll(MADE)) out.add((m[1] ?? m[2]) as string);
  return out;
}

// Built from MADE_WORDS, code's own words (never from a request).
const JUST_MADE = new RegExp(`\\bjust\\s+(${MADE_WORDS.filter((w) => w !== "from").join("|")})\\b`, "giu");

/**
 * "The order I just placed" read as "placed today": minutes ago is within today's reach, and two
 * records made today are still asked about, never picked (set X: the order placed a minute before
 * was not taken from the words, and the model picked it from the list).
 */
export function justMadeAsToday(request: string): string {
  return request.replace(JUST_MADE, "$1 today");
}

/** Whether this word is a day word (dated or not). */
export function isDayWord(word: string): boolean {
  return word in REACH_H;
}

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
