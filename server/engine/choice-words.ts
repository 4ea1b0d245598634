import { z } from "zod";

/**
 * The one place where a person's words become a choice a node offers: a label ("Office"), a
 * method ("balance"), a product name and size ("Logo Tee L"), a teammate's name, words of a
 * ticket's subject. It reads only the node's own options (the rows it offers for a field) and
 * the field's enum, so it works for every connector, hand-written or imported, with no list of
 * entities: the value to send is the row's key named after the field (a field `x_type` → the
 * row's `type`, a field `x_thing_id` → its `thing_id`, else its `id`), the words are what the row
 * says.
 */

/** One row a field may take: the value to send, and the words a person would use for it. */
export interface ChoiceRow {
  value: string;
  /** The row's own words, lower-case tokens (names, labels, subjects, items, the value's parts). */
  tokens: Set<string>;
  /** Whole names the row goes by (label, name, title, subject), lower-case. */
  names: string[];
  /** The row as offered, for candidate lists. */
  row: Record<string, unknown>;
}

/** Keys whose values name a row as people say it (never a status: "not shipped" names no order). */
const NAME_KEYS = ["name", "label", "title", "subject", "items", "description", "display_name", "summary"];

/** Words that never tell one row from another. */
const STOP = new Set(
  "a an the my our your me i we to of for in on at by with and or from into that this it is be please want would like can size instead".split(
    " ",
  ),
);

/** Lower-case word tokens of a text (letters and digits of any script), stop words dropped. */
export function wordTokens(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !STOP.has(t));
}

/** The keys a row's value for `field` may sit under, the most specific first. */
function valueKeys(field: string): string[] {
  const parts = field.split("_");
  return parts.map((_, i) => parts.slice(i).join("_"));
}

function rowOf(value: string, row: Record<string, unknown>): ChoiceRow {
  const names: string[] = [];
  const tokens = new Set<string>();
  for (const key of NAME_KEYS) {
    const v = row[key];
    if (typeof v !== "string" || !v.trim()) continue;
    names.push(v.trim().toLowerCase());
    for (const t of wordTokens(v)) tokens.add(t);
  }
  // The value's own parts ("balance", "refund_only", "prod_tee_l"): a prefix shared by every
  // row (ord_, tkt_) never tells rows apart, so it costs nothing to keep.
  for (const t of wordTokens(value.replace(/[_-]/g, " "))) tokens.add(t);
  return { value, tokens, names, row };
}

/**
 * The rows a node's options offer for `field`: the first list of objects whose rows carry the
 * field's value key, else the field's enum (from its schema). Empty when the node offers none.
 */
export function choicesFor(field: string, options: Record<string, unknown>, schema?: z.ZodType): ChoiceRow[] {
  const keys = valueKeys(field);
  for (const key of keys) {
    for (const list of Object.values(options)) {
      if (!Array.isArray(list) || !list.length) continue;
      const rows = list.filter((r): r is Record<string, unknown> => !!r && typeof r === "object");
      if (rows.length !== list.length || !rows.every((r) => typeof r[key] === "string")) continue;
      return rows.map((r) => rowOf(String(r[key]), r));
    }
  }
  const values = schema ? enumValues(schema) : [];
  return values.map((v) => rowOf(v, {}));
}

function enumValues(schema: z.ZodType): string[] {
  try {
    const json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as { enum?: unknown[] };
    return (json.enum ?? []).filter((v): v is string => typeof v === "string");
  } catch {
    return [];
  }
}

export type WordsMatch =
  | { kind: "one"; choice: ChoiceRow }
  | { kind: "several"; choices: ChoiceRow[] }
  | { kind: "none" };

/**
 * What a value sent for a field means among its rows: the row it names exactly (its value or a
 * whole name, any case), else the rows holding every word sent. Several such rows are several
 * candidates: the caller lists them, never guesses.
 */
export function matchSentWords(rows: ChoiceRow[], sent: string): WordsMatch {
  const wanted = sent.trim().toLowerCase();
  if (!wanted) return { kind: "none" };
  const exact = rows.filter((r) => r.value.toLowerCase() === wanted || r.names.includes(wanted));
  if (exact.length === 1 && exact[0]) return { kind: "one", choice: exact[0] };
  const words = wordTokens(wanted);
  if (!words.length) return { kind: "none" };
  const holding = (exact.length ? exact : rows).filter((r) => words.every((w) => r.tokens.has(w)));
  if (holding.length === 1 && holding[0]) return { kind: "one", choice: holding[0] };
  return holding.length ? { kind: "several", choices: holding } : { kind: "none" };
}

/**
 * The one row the user's request names, if it names one: each row scores the request's words it
 * holds that not every row holds (a word in every row tells none apart); the single best wins.
 * Anything less (no word, a tie) names none, and the field stays for the agent to fill.
 */
export function namedInWords(rows: ChoiceRow[], words: string): ChoiceRow | undefined {
  const tokens = [...new Set(wordTokens(words))];
  if (!tokens.length || !rows.length) return undefined;
  const spread = (t: string) => rows.filter((r) => r.tokens.has(t)).length;
  const telling = tokens.filter((t) => rows.length === 1 || spread(t) < rows.length);
  let best: ChoiceRow | undefined;
  let bestScore = 0;
  let tie = false;
  for (const row of rows) {
    const score = telling.filter((t) => row.tokens.has(t)).length;
    if (score > bestScore) {
      best = row;
      bestScore = score;
      tie = false;
    } else if (score === bestScore && score > 0) tie = true;
  }
  return bestScore > 0 && !tie ? best : undefined;
}

/** A candidate in a few words for a message: `value` (its name). */
export function candidateText(choice: ChoiceRow): string {
  const name = NAME_KEYS.map((k) => choice.row[k]).find((v) => typeof v === "string" && v.trim());
  return name && name !== choice.value ? `${choice.value} (${String(name).slice(0, 60)})` : choice.value;
}
