/**
 * Points in time as lists show them to a model. A model does not know what time it is, so a bare
 * date ("placed: 2026-12-03") does not say which of two orders was placed a minute ago: round 5's
 * model could not tell "the order I placed today" from an old one. Each time is shown to the
 * minute in UTC with how long ago it was: `2026-12-03 06:42 UTC, 4 min ago`. Two days and more
 * away, the day does (`2026-11-28, 7 days ago`): the minute of a week-old order answered no
 * question and cost five tokens on every row of a listing (issue 23); a listing states its order.
 * A listing filtered by a time window shows every minute (exact-times.ts).
 */

import { exactTimes } from "./exact-times";

/** An ISO 8601 date-time with its zone, as systems send `created_at`: 2026-12-03T06:42:10.123Z. */
const ISO_TIME = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?(?:Z|[+-]\d\d:?\d\d)$/i;

/** Whether a value is a date-time with its zone (a date alone, or a time without a zone, is not). */
export function isTimestamp(value: unknown): value is string {
  return typeof value === "string" && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

/**
 * Keys naming when a record was created (`created_at`, `createdAt`, `created`, `placed_at`,
 * `date_created`, `inserted_at`, `opened_at`, `submitted_at`): the fact "oldest", "newest" and
 * "today" are answered from.
 */
export function isCreationKey(key: string): boolean {
  const k = key.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
  return /^(created|creation|inserted|placed|opened|submitted)(_(at|on|date|time|timestamp))?$|^date_(created|placed|opened)$/.test(
    k,
  );
}

/** A day and more: the unit `age` counts in days from, where the minute no longer matters. */
const DAYS = 48 * 60;

/**
 * `2026-12-03 06:42 UTC, 4 min ago`, or `2026-11-28, 7 days ago` two days and more away; a value
 * that is no date-time is returned as it is.
 */
export function whenText(value: string, now: number = Date.now()): string {
  if (!isTimestamp(value)) return value;
  const at = Date.parse(value);
  const utc = new Date(at).toISOString();
  // Inside a time-window filter every row shows its minute: the window's bound is one.
  // Unrounded: 48 hours and more always span two dates (review 68: 47 h 59 min read "1 days ago").
  const far = Math.abs(now - at) >= DAYS * 60_000 && !exactTimes();
  return far
    ? `${utc.slice(0, 10)}, ${daysAway(now, at)}`
    : `${utc.slice(0, 10)} ${utc.slice(11, 16)} UTC, ${age(now - at)}`;
}

/**
 * The days between the shown date and today's (UTC), as the date alone reads: set DE's
 * "paid: 2026-12-05, 3 days ago · shipped: 2026-12-05, 2 days ago" (the hours rounded apart) made
 * a model doubt a delivery date.
 */
function daysAway(now: number, at: number): string {
  const day = (t: number) => Math.floor(t / 86_400_000);
  const days = Math.abs(day(now) - day(at));
  return now >= at ? `${days} days ago` : `in ${days} days`;
}

/** How long ago (or, for a time to come, how soon) in the one unit that reads best. */
function age(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  if (minutes < 1) return "just now";
  const span =
    minutes < 60
      ? `${minutes} min`
      : Math.abs(ms) < DAYS * 60_000
        ? `${Math.round(minutes / 60)} h`
        : `${Math.round(minutes / (24 * 60))} days`;
  return ms >= 0 ? `${span} ago` : `in ${span}`;
}
