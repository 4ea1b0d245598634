import { verbOfPast } from "../connectors/sdk/record-events";
import { stemmedWords } from "./stemmed-words";

/**
 * Words that ask for a moment: "when was it delivered", "what date did it ship", or which came
 * last or first by one ("most recently updated": set CM's players opened the column to trust the
 * order the heading stated).
 */
const ASKS_WHEN =
  /\bwhen\b|\bwhat (?:time|day|date)\b|\bhow long ago\b|\bsince when\b|\b(?:most|least) recently\b/i;

/** Whether the words ask for a moment ("when …", "what date …"). */
export function asksWhen(query: string): boolean {
  return ASKS_WHEN.test(query);
}

/**
 * Words for a record's coming into being that share no stem with the field that keeps its time
 * (`created_at`): "when did I place it", "when was the ticket opened". General English, no
 * business word; the connector's field names do the rest.
 */
const CREATED_WORDS = new Set(["opened", "placed", "raised", "filed", "submitted", "made", "started"]);

/** The words of a time field's name that say it is one, not which event it keeps. */
const TIME_WORDS = new Set(["at", "on", "date", "time", "timestamp"]);

/**
 * Each word → its stem as stemmed-words.ts reads it, an irregular past as its verb, a doubled
 * last consonant single ("shipped" → "shipp" → "ship"), so "ship" and `shipped_at` meet.
 */
function eventStems(text: string): Map<string, string> {
  return new Map(
    [...stemmedWords(text)].map(([word, stem]) => [
      word,
      verbOfPast(word) ?? stem.replace(/([b-df-hj-np-tv-z])\1$/, "$1"),
    ]),
  );
}

/** A field name that holds a moment: `delivered_at`, `shippedOn`, `paid_date`, `created_time`. */
const TIME_FIELD = /(?:_at|_on|_date|_time|_timestamp|At|On|Date|Time)$/;

/**
 * The fields holding the time of the events the words ask "when" about ("when was my backpack
 * delivered?" → `delivered_at`), among a listing's fields, and the words that asked (the event's
 * word and the "when" words): a search adds those columns, so the moment is in its first answer
 * (issue 23: "delivered" went to the status filter, the delivery time stayed a hidden column, and
 * the model opened the order). Empty when the words ask no "when". Events are matched by their
 * stems against the field's own words, never as patterns.
 */
export function eventTimeColumns(
  query: string,
  fields: readonly string[],
): { columns: string[]; words: string[] } {
  const asked = ASKS_WHEN.exec(query);
  if (!asked) return { columns: [], words: [] };
  const named = namedEventColumns(query, fields);
  if (!named.columns.length) return named;
  return { columns: named.columns, words: [...named.words, ...asked[0].toLowerCase().split(/\s+/)] };
}

/**
 * The time fields among `fields` whose event the words name ("delivered" → `delivered_at`,
 * "opened" → `created_at`), and the words that named them, whether or not they ask "when": a
 * time window ("opened in the last 3 days") compares the rows' cells of that field.
 */
export function namedEventColumns(
  query: string,
  fields: readonly string[],
): { columns: string[]; words: string[] } {
  const said = eventStems(query);
  const columns: string[] = [];
  const named = new Set<string>();
  for (const field of fields.filter((f) => TIME_FIELD.test(f))) {
    const own = new Set(eventStems(field.replace(/([a-z])([A-Z])/g, "$1_$2")).values());
    const created = own.has("creat");
    for (const [word, stem] of said) {
      if (stem.length < 3 || TIME_WORDS.has(stem)) continue;
      if (!(own.has(stem) || (created && CREATED_WORDS.has(word)))) continue;
      if (!columns.includes(field)) columns.push(field);
      named.add(word);
    }
  }
  return { columns, words: [...named] };
}
