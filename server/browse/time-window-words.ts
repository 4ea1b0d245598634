import { countOfWord } from "../number-words";
import { words } from "./route-words";

/**
 * A time window relative to now that a search's words set ("in the last 3 days", "past week",
 * "today", "since yesterday", "this week", "older than 2 weeks"): a listing's time column is
 * compared with it (time-window-rows.ts), and its words are never the text filter. Issue 23:
 * "tickets opened in the last 3 days" searched the tickets' text for "opened 3 days", said
 * nothing matched, and left the model to read dates near the bound itself. English, a small
 * grammar; bounds are in UTC, to the minute, as the rows' cells show times.
 */
export interface TimeWindow {
  /** Rows at or after this moment are in (ms since epoch, a whole minute). */
  since?: number;
  /** Rows before this moment are in (ms since epoch, a whole minute). */
  before?: number;
  /** The window as the query spelt it ("in the last 3 days"). */
  phrase: string;
  /** The words (as `words()` reads them) the window was said in: never the text filter. */
  words: string[];
  /**
   * The event the words put the window on, as spelt right before it ("opened", "updated",
   * "delivered"), or "" for none: then the record's creation is meant.
   */
  event: string;
  /**
   * Whether the words deny the window ("not opened in the last 3 days", "haven't shipped this
   * week"): the rows meant are the ones outside it, or none the window can tell.
   */
  negated: boolean;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const UNIT = "(minute|min|hour|hr|day|week|month|year)s?";
const COUNT = "(\\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|couple of)";
/** The count a window's words say: the shared count words, "couple of", or digits. */
const countOf = (word: string): number => (word === "couple of" ? 2 : (countOfWord(word) ?? Number(word)));

/** A moment `count` units before `now` (months and years by the calendar). */
function back(now: number, count: number, unit: string): number {
  const u = unit.replace(/s$/, "");
  if (u === "month" || u === "year") {
    const d = new Date(now);
    if (u === "month") d.setUTCMonth(d.getUTCMonth() - count);
    else d.setUTCFullYear(d.getUTCFullYear() - count);
    return d.getTime();
  }
  const size =
    u === "minute" || u === "min" ? MINUTE : u === "hour" || u === "hr" ? HOUR : u === "day" ? DAY : 7 * DAY;
  return now - count * size;
}

/** The start of the UTC day, week (Monday), month or year holding `now`. */
function startOf(now: number, unit: string): number {
  const d = new Date(now);
  d.setUTCHours(0, 0, 0, 0);
  if (unit === "week") d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  if (unit === "month") d.setUTCDate(1);
  if (unit === "year") d.setUTCMonth(0, 1);
  return d.getTime();
}

const floorMinute = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;

interface Form {
  pattern: RegExp;
  window: (m: RegExpExecArray, now: number) => { since?: number; before?: number };
}

/** The forms read, first match wins; each is a whole phrase, never a lone word. */
const FORMS: Form[] = [
  {
    // "in the last 3 days", "within the past 24 hours", "over the last week", "last two weeks"
    pattern: new RegExp(
      `\\b(?:(?:in|within|during|over|from|for)\\s+)?(?:the\\s+)?(?:last|past)\\s+(?:${COUNT}\\s+)?${UNIT}\\b`,
    ),
    window: (m, now) => ({ since: back(now, m[1] ? countOf(m[1]) : 1, m[2] ?? "day") }),
  },
  {
    // "older than 2 weeks", "more than 3 days ago", "over a month old"
    pattern: new RegExp(`\\b(?:older than|more than|over)\\s+${COUNT}\\s+${UNIT}(?:\\s+(?:ago|old))?\\b`),
    window: (m, now) => ({ before: back(now, countOf(m[1] ?? ""), m[2] ?? "day") }),
  },
  {
    pattern: /\b(?:since|from)\s+yesterday\b/,
    window: (_m, now) => ({ since: startOf(now, "day") - DAY }),
  },
  {
    pattern: /\byesterday\b/,
    window: (_m, now) => ({ since: startOf(now, "day") - DAY, before: startOf(now, "day") }),
  },
  { pattern: /\btoday\b/, window: (_m, now) => ({ since: startOf(now, "day") }) },
  {
    pattern: /\bthis\s+(week|month|year)\b/,
    window: (m, now) => ({ since: startOf(now, m[1] ?? "week") }),
  },
];

/**
 * A denial right before the window or its event ("not", "never", "haven't", "wasn't been"):
 * issue 23 review, "tickets not opened in the last 3 days" kept exactly the ones opened in it.
 */
const NEGATION =
  /\b(?:not|never|cannot|\w+n['’]t|(?:do|did|does|have|has|had|is|are|was|were|ca|wo)nt)\s+(?:(?:been|be|yet|ever|even|get|got|being)\s+)*$/;

/**
 * Whether an "-ed" word can be a past participle naming an event: "speed", "need", "bed", "red"
 * are not (issue 23 review: "tickets about speed in the last week" lost "speed" from the text
 * search as the window's event). "-eed" words are participles only as a few verbs ("agreed").
 */
function isParticiple(word: string): boolean {
  if (word.length < 5) return false;
  return !/eed$/.test(word) || /(?:agreed|freed|guaranteed|decreed|refereed)$/.test(word);
}

/** The time window the words set, or null: a number or unit alone ("3 days") sets none. */
export function timeWindow(q: string, now: number = Date.now()): TimeWindow | null {
  const text = q.toLowerCase();
  for (const form of FORMS) {
    const m = form.pattern.exec(text);
    if (!m) continue;
    // "over 3 days" without "ago"/"old" is a window only after "older"/"more than": "over" alone
    // reads as within ("over the last week" is the first form).
    if (/^over\b/.test(m[0]) && !/\b(ago|old|last|past)\b/.test(m[0])) continue;
    const { since, before } = form.window(m, now);
    const phrase = m[0].trim();
    // "<records> updated in the last day": a past participle right before the window names its event.
    const prior = text.slice(0, m.index);
    const participle = /\b([a-z]+ed)\s*$/.exec(prior);
    const event = participle?.[1] && isParticiple(participle[1]) ? participle[1] : "";
    const head = event && participle ? prior.slice(0, participle.index) : prior;
    return {
      event,
      negated: NEGATION.test(head),
      ...(since === undefined ? {} : { since: floorMinute(since) }),
      ...(before === undefined ? {} : { before: floorMinute(before) }),
      phrase,
      words: words(event ? `${event} ${phrase}` : phrase),
    };
  }
  return null;
}

/** A moment as the rows' cells write one: `2026-12-03 04:12 UTC`. */
export function minuteText(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** The window's bounds in words: "since 2026-12-03 04:12 UTC", "before …", "from … to before …". */
export function boundsText(window: TimeWindow): string {
  const { since, before } = window;
  if (since !== undefined && before !== undefined)
    return `from ${minuteText(since)} to before ${minuteText(before)}`;
  return since !== undefined ? `since ${minuteText(since)}` : `before ${minuteText(before ?? 0)}`;
}

/** Whether a moment is inside the window. */
export function inWindow(ms: number, window: TimeWindow): boolean {
  return (
    (window.since === undefined || ms >= window.since) && (window.before === undefined || ms < window.before)
  );
}
