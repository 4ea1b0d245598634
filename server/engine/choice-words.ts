// stays-whole: the one place where words become a node's choice; its matchers share one scoring.
import { z } from "zod";
import { readWords, withoutDenied, withoutDeniedCarried } from "../connectors/sdk/negated-words";
import { recordEvents, type StatusLifecycle, stateOf } from "../connectors/sdk/record-events";
import { countIn } from "../number-words";
import { wordTable } from "../word-table";
import { maskQuotes, QUOTED, quoteMarks } from "./mask-quotes";
import { pricedInWords } from "./price-words";
import { toldContent, toldMessage, toldUntilOtherAsk } from "./told-content";

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
  /**
   * Words the row holds only as part of a declared phrase of several words ("shop credit"), with
   * those phrases: such a word names the row only beside the rest of one of its phrases ("in the
   * shop" names no way to pay). Absent when none.
   */
  phraseOnly?: Map<string, string[][]>;
  /** The row as offered, for candidate lists. */
  row: Record<string, unknown>;
  /**
   * What the record went through, by event stem (record-events.ts): its `<event>_at` stamps and,
   * once `withLifecycle` read it, its node's declared lifecycle. Absent: unknown.
   */
  events?: Map<string, boolean>;
  /**
   * What people call the state the record is in, as its lifecycle declares it (StatusLifecycle.words),
   * each word or phrase as its tokens joined by a space ("waiting payment"). Absent: none declared.
   */
  stateWords?: Set<string>;
}

/** Keys whose values name a row as people say it (never a status: "not shipped" names no order). */
export const NAME_KEYS = [
  "name",
  "label",
  "title",
  "subject",
  "items",
  "description",
  "display_name",
  "summary",
];

/** Words that never tell one row from another. */
const STOP = new Set(
  "a an the my our your me i we to of for in on at by with and or from into that this it is be please want would like can size instead".split(
    " ",
  ),
);

/**
 * An English contraction's tail ("what's", "that's", "don't", "we'll"): cut before tokens are
 * taken, or its lone letter becomes a word — "buy what's in my cart" named the size-S tee, and
 * "the order that's on its way" the order holding it (played, round 3).
 */
const CONTRACTION_TAIL = /['’]\p{L}{1,2}(?![\p{L}\p{N}])/gu;

/**
 * Sizes as people say them and as labels write them ("a large one", "Tee (L)"): round 28's
 * "swap my tee for a large one" found no size L among the replacements.
 */
const SIZE_WORDS: Readonly<Record<string, string>> = wordTable({ small: "s", medium: "m", large: "l" });
/** A size said as what is wrong ("it is too small") names no size to take: it is dropped. */
const SIZE_COMPLAINT = /\b(?:too|so|very)\s+(?:small|large|big)\b/g;

/**
 * Lower-case word tokens of a text (letters and digits of any script), stop words dropped, a
 * plain English plural folded ("mugs" → "mug"; both sides of every match are folded alike), a
 * size word folded to its letter.
 */
export function wordTokens(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(CONTRACTION_TAIL, "")
      .replace(SIZE_COMPLAINT, " ")
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .filter((t) => !STOP.has(t))
    .map((t) => SIZE_WORDS[t] ?? (t.length > 3 && t.endsWith("s") && !t.endsWith("ss") ? t.slice(0, -1) : t));
}

/** The keys a row's value for `field` may sit under, the most specific first. */
/** The keys a row may hold a field's value under: delivery_speed → delivery_speed, speed. */
export function valueKeys(field: string): string[] {
  const parts = field.split("_");
  return parts.map((_, i) => parts.slice(i).join("_"));
}

/**
 * A row of a list as a choice: its value and the words it says of itself, with the other words
 * its connector declares for the value (`also`: NodeDefinition.valueWords).
 */
export function rowOf(value: string, row: Record<string, unknown>, also: readonly string[] = []): ChoiceRow {
  const names: string[] = [];
  const tokens = new Set<string>();
  for (const key of NAME_KEYS) {
    const v = row[key];
    if (typeof v !== "string" || !v.trim()) continue;
    names.push(v.trim().toLowerCase());
    for (const t of wordTokens(v)) tokens.add(t);
  }
  // The value's own parts ("balance", "refund_only"), for a row with no name to say it by: a
  // prefix shared by every row (ord_, tkt_) never tells rows apart, so it costs nothing to keep.
  // A named row is named by its names (or its whole value, quoted): an id's parts are no words
  // of the user's — "Exchange the mug" named the tee's line `ord_exchange_item_1` by "exchange".
  if (!names.length) for (const t of wordTokens(value.replace(/[_-]/g, " "))) tokens.add(t);
  // A declared word names the row alone; a declared phrase's words name it together.
  const phrases: string[][] = [];
  for (const name of also) {
    if (!name.trim()) continue;
    names.push(name.trim().toLowerCase());
    const words = wordTokens(name);
    if (words.length > 1) phrases.push(words);
    else for (const t of words) tokens.add(t);
  }
  const phraseOnly = new Map<string, string[][]>();
  for (const words of phrases)
    for (const t of words) if (!tokens.has(t)) phraseOnly.set(t, [...(phraseOnly.get(t) ?? []), words]);
  for (const t of phraseOnly.keys()) tokens.add(t);
  return { value, tokens, names, row, events: recordEvents(row), ...(phraseOnly.size ? { phraseOnly } : {}) };
}

/**
 * The rows with what their node's lifecycle says each record went through (record-events.ts), and
 * what people call the state each is in.
 */
export function withLifecycle(rows: ChoiceRow[], lifecycle: StatusLifecycle | undefined): ChoiceRow[] {
  if (!lifecycle) return rows;
  return rows.map((r) => {
    const state = stateOf(lifecycle, r.row[lifecycle.key]);
    const said = (state !== undefined && lifecycle.words?.[state]) || [];
    const stateWords = new Set(said.map((w) => wordTokens(w).join(" ")).filter(Boolean));
    return { ...r, events: recordEvents(r.row, lifecycle), ...(stateWords.size ? { stateWords } : {}) };
  });
}

/** Other words for each value of one field, as its node declares them (NodeDefinition.valueWords). */
export type ValueWords = Readonly<Record<string, readonly string[]>>;

/**
 * The rows a node's options offer for `field`: the first list of objects whose rows carry the
 * field's value key, else the field's enum (from its schema). Empty when the node offers none.
 * `said`: the other words the connector declares for each value, named as the row's own.
 */
export function choicesFor(
  field: string,
  options: Record<string, unknown>,
  schema?: z.ZodType,
  said: ValueWords = {},
): ChoiceRow[] {
  const keys = valueKeys(field);
  const also = (value: string) => (Object.hasOwn(said, value) ? said[value] : undefined);
  for (const key of keys) {
    for (const list of Object.values(options)) {
      if (!Array.isArray(list) || !list.length) continue;
      const rows = list.filter((r): r is Record<string, unknown> => !!r && typeof r === "object");
      if (rows.length !== list.length || !rows.every((r) => typeof r[key] === "string")) continue;
      return rows.map((r) => rowOf(String(r[key]), r, also(String(r[key]))));
    }
  }
  const values = schema ? enumValues(schema) : [];
  return values.map((v) => rowOf(v, {}, also(v)));
}

/** Rows of a plain set of values (an imported field's enum). */
export function choicesOfValues(values: readonly string[]): ChoiceRow[] {
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
  // A value sent for the field is all about it: a phrase's word alone ("credit") may name a row.
  const holding = (exact.length ? exact : rows).filter((r) => words.every((w) => r.tokens.has(w)));
  if (holding.length === 1 && holding[0]) return { kind: "one", choice: holding[0] };
  return holding.length ? { kind: "several", choices: holding } : { kind: "none" };
}

/**
 * The one row the user's request names, if it names one: each row scores the request's words it
 * holds that not every row holds (a word in every row tells none apart), a word it denies or sets
 * apart aside; the single best wins.
 * Anything less (no word, a tie) names none, and the field stays for the agent to fill.
 */
export function namedInWords(rows: ChoiceRow[], words: string): ChoiceRow | undefined {
  // "to my home instead of the office", "not the office": a word set apart names no row to take;
  // "don't ship it to my home": a denied verb passes its denial to the row word after it.
  const holds = (raw: string) => wordTokens(raw).some((t) => rows.some((r) => r.tokens.has(t)));
  const { best } = bestInWords(rows, withoutDeniedCarried(words, holds));
  return best.length === 1 ? best[0] : undefined;
}

/**
 * The rows these words name alike, where they name several and no one of them (two lamp orders
 * for "my lamp order"): at most `max`, else none (the words then name too little to list).
 */
export function namedAlike(rows: ChoiceRow[], words: string, max = 10): ChoiceRow[] {
  const holds = (raw: string) => wordTokens(raw).some((t) => rows.some((r) => r.tokens.has(t)));
  const { best } = bestInWords(rows, withoutDeniedCarried(words, holds));
  return best.length > 1 && best.length <= max ? best : [];
}

/**
 * The other rows these words name as well as `chosen` or better, each by a telling word `chosen`
 * does not hold: "my headphones ticket about the parcel" ties the parcel ticket with the
 * headphones one, each by its own word, so the words name neither for certain; "my kettle order"
 * ties two kettle orders by the same word, and names no other row than the one that holds it.
 */
export function namedBeside(rows: ChoiceRow[], chosen: string, words: string): ChoiceRow[] {
  const holds = (raw: string) => wordTokens(raw).some((t) => rows.some((r) => r.tokens.has(t)));
  const kept = withoutDeniedCarried(words, holds);
  const { best } = bestInWords(rows, kept);
  const own = rows.find((r) => r.value === chosen);
  if (!own) return [];
  const said = wordTokens(kept);
  return best.filter(
    (r) => r.value !== chosen && said.some((t) => holdsWord(r, t, said) && !holdsWord(own, t, said)),
  );
}

/** A candidate in a few words for a message: `value` (its name). */
export function candidateText(choice: ChoiceRow): string {
  const name = rowName(choice);
  return name && name !== choice.value ? `${choice.value} (${name.slice(0, 60)})` : choice.value;
}

/** The name a row goes by as offered (its first name key with text), if any. */
function rowName(choice: ChoiceRow): string | undefined {
  const name = NAME_KEYS.map((k) => choice.row[k]).find((v) => typeof v === "string" && v.trim());
  return name === undefined ? undefined : String(name);
}

/** The rows among these that the words name best (ties included), and how many telling words they hold. */
/**
 * Whether the row holds `word` in these words (in order): a phrase's word only where the whole
 * phrase stands in them, word after word ("take the note off it" is no "take off hold").
 */
function holdsWord(row: ChoiceRow, word: string, among: readonly string[]): boolean {
  if (!row.tokens.has(word)) return false;
  const phrases = row.phraseOnly?.get(word);
  return !phrases || phrases.some((p) => among.some((_, i) => p.every((w, j) => among[i + j] === w)));
}

function bestInWords(rows: ChoiceRow[], words: string): { best: ChoiceRow[]; score: number } {
  const said = wordTokens(words);
  const tokens = [...new Set(said)];
  if (!tokens.length || !rows.length) return { best: [], score: 0 };
  const spread = (t: string) => rows.filter((r) => holdsWord(r, t, said)).length;
  const telling = tokens.filter((t) => rows.length === 1 || spread(t) < rows.length);
  let best: ChoiceRow[] = [];
  let score = 0;
  // A lone letter (a size: "L", "a large one") tells less than a word: "a large mug" is the mug,
  // not the tee in L (a review found them tied).
  const weight = (t: string) => (t.length === 1 ? 0.5 : 1);
  for (const row of rows) {
    const s = telling.filter((t) => holdsWord(row, t, said)).reduce((n, t) => n + weight(t), 0);
    if (s > score) {
      best = [row];
      score = s;
    } else if (s === score && s > 0) best.push(row);
  }
  return { best, score };
}

/**
 * A field that lists things with how many of each (`lines: [{item_id, quantity}]`): the key
 * each entry names its thing by (the first required string property) and its count (the first
 * integer property). Undefined for any other field.
 */
export interface ItemShape {
  key: string;
  count?: string;
}

export function itemShapeOf(schema: z.ZodType): ItemShape | undefined {
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const item = json.type === "array" ? (json.items as Record<string, unknown> | undefined) : undefined;
  const props = (item?.type === "object" ? item.properties : undefined) as
    | Record<string, { type?: string }>
    | undefined;
  if (!props) return undefined;
  const required = new Set((item?.required as string[] | undefined) ?? Object.keys(props));
  const key = Object.keys(props).find((k) => required.has(k) && props[k]?.type === "string");
  if (!key) return undefined;
  const count = Object.keys(props).find((k) => props[k]?.type === "integer" || props[k]?.type === "number");
  return { key, ...(count ? { count } : {}) };
}

/** A row of a named list: the list it came from, and the words that name that list. */
export type ListedRow = ChoiceRow & { list: string; listWords: string[] };

/**
 * Rows of every list (options or looked up) that carry `key`, once per value, the first kept;
 * with the list each came from and the words naming it: its name and the `names` its node
 * declares for it (NodeDefinition.listNames: the cart is a basket too).
 */
export function rowsCarrying(
  key: string,
  lists: Record<string, unknown>,
  names: Record<string, readonly string[]> = {},
): ListedRow[] {
  const out: ListedRow[] = [];
  const seen = new Set<string>();
  for (const [list, rows] of Object.entries(lists)) {
    if (!Array.isArray(rows) || !rows.length) continue;
    if (
      !rows.every(
        (r) => r && typeof r === "object" && typeof (r as Record<string, unknown>)[key] === "string",
      )
    )
      continue;
    const listWords = [...new Set(wordTokens([list, ...(names[list] ?? [])].join(" ")))];
    for (const r of rows as Record<string, unknown>[]) {
      const value = String(r[key]);
      if (seen.has(value)) continue;
      seen.add(value);
      out.push({ ...rowOf(value, r), list, listWords });
    }
  }
  return out;
}

/** Words that turn a part of a request into what not to take. */
const NEGATED = /\b(?:no|not|nothing|none|never|without|except|don['’]?t)\b/i;

export type ItemsMatch =
  /**
   * `why`: how entries named by their price were picked, for the answer; `shown`: the entries as
   * the answer says them ("1 × prod_hoodie (Hoodie (M))").
   */
  | { kind: "items"; items: Array<Record<string, unknown>>; why?: string; shown: string }
  | { kind: "several"; words: string; choices: ChoiceRow[] }
  | { kind: "none" };

/**
 * A request's parts, each one thing it says: split at commas, "and", "&", "+", "but" and
 * sentence ends ("Buy one mug. Nothing else from the cart." is two).
 */
export function requestParts(request: string): string[] {
  return request.split(/[,;\n+&、，和]|[.!?](?=\s|$)|\b(?:and|but|plus)\b/i);
}

/**
 * The entries a request names for a list field: each part of it ("2 Logo Tee L", "a mug";
 * parts split at commas, "and", "&", "+") that names one row best is one entry, with the number
 * it says, else the row's own count (a cart line's quantity), else 1. A part that names no row
 * but names a list of counted lines ("my cart") takes that list's rows whole. A part that fits several rows
 * equally is returned as candidates: never a guess.
 */
export function itemsInWords(rows: ListedRow[], shape: ItemShape, request: string): ItemsMatch {
  const items: Array<Record<string, unknown>> = [];
  const taken = new Set<string>();
  const wholeLists: string[] = [];
  const whys: string[] = [];
  const shown: string[] = [];
  const requested = new Set(wordTokens(request));
  const add = (row: ChoiceRow, count: number | undefined, priced = false) => {
    if (taken.has(row.value)) return;
    taken.add(row.value);
    const own = shape.count ? row.row[shape.count] : undefined;
    const n = count ?? (typeof own === "number" && own > 0 ? own : 1);
    items.push({ [shape.key]: row.value, ...(shape.count ? { [shape.count]: n } : {}) });
    // The row's name where it says what the words did not (set AB: "a Hoodie" took the one
    // hoodie, a size M, and the model searched the catalogue to learn which it was).
    const name = rowName(row);
    // A row picked by its price is named by its why already.
    const more = !priced && name !== undefined && wordTokens(name).some((w) => !requested.has(w));
    shown.push(`${shape.count ? `${n} × ` : ""}${row.value}${more ? ` (${name.slice(0, 60)})` : ""}`);
  };
  // Only a list of lines with their counts (a cart) is taken whole, or alone; never a catalog.
  const counted = (list: string) =>
    !!shape.count && rows.some((r) => r.list === list && typeof r.row[shape.count as string] === "number");
  // What the words set apart ("everything in my cart but the mugs", "… except the tee") is no
  // part to take, and a list taken whole leaves it out (a review: the mugs reached the approval).
  // Not where it is counted ("except one mug", "but one"): a whole row is not what is left out,
  // and the parts are read as said (review 54: "my cart except one mug" took the tee alone).
  const countApart = countSetApart(request);
  const kept = countApart ? request : withoutDenied(request);
  const apart = countApart ? "" : deniedText(request, kept);
  const left = apart ? bestInWords(rows, apart) : { best: [], score: 0 };
  const setApart = new Set(left.score > 0 ? left.best.map((r) => r.value) : []);
  // One part's rows: by price, by name, else a counted list it names ("my cart") whole.
  // Returns a tie to ask about, or nothing.
  const takePart = (part: string): ItemsMatch | undefined => {
    // "The cheapest product": the one its price names, whatever else its words hold.
    const said = wordTokens(part);
    // "…in my cart" prices the cart's rows only; "the cheapest product" is no catalog's list
    // (a row in both is kept under its first list: the catalog's copy of a cart line is gone).
    const listed = rows.filter((r) => counted(r.list) && r.listWords.some((w) => said.includes(w)));
    const priced = pricedInWords(listed.length ? listed : rows, part, said);
    if (priced?.kind === "one") {
      // One unless the words count: never the cart line's own quantity (a review: "buy the
      // cheapest product" took 2 × the mug the cart held two of).
      add(priced.choice, countIn(part) ?? 1, true);
      // By its name (the value is beside it already): "Signpost Mug: the cheapest of 9 available".
      whys.push(`${(rowName(priced.choice) ?? priced.choice.value).slice(0, 60)}: ${priced.why}`);
    } else if (priced?.kind === "some") {
      // "The two cheapest products": two different products, one of each.
      for (const choice of priced.choices) add(choice, 1, true);
      const names = priced.choices.map((c) => (rowName(c) ?? c.value).slice(0, 60));
      whys.push(`${names.join(", ")}: ${priced.why}`);
    } else if (priced?.kind === "tie")
      return { kind: "several", words: part.trim(), choices: priced.choices };
    if (priced) return undefined;
    const { best, score } = bestInWords(rows, part);
    if (best.length === 1 && best[0]) add(best[0], countIn(part));
    else if (best.length > 1 && score > 0) return { kind: "several", words: part.trim(), choices: best };
    else {
      const tokens = new Set(said);
      for (const r of rows)
        if (!wholeLists.includes(r.list) && r.listWords.some((w) => tokens.has(w)) && counted(r.list))
          wholeLists.push(r.list);
    }
    return undefined;
  };
  // Sentences are parts too: "Buy one mug. Nothing else from the cart." is two asks.
  for (const part of requestParts(kept)) {
    if (!part.trim()) continue;
    // A part that says what NOT to take names nothing to take: "nothing else from the cart" took
    // the whole cart (set H: a tee the user had excluded reached the approval screen). The words
    // before the negation still ask ("buy one mug from my cart except the tee"), where what it
    // sets apart is read (not counted).
    const negation = NEGATED.exec(part);
    const before = negation ? part.slice(0, negation.index) : part;
    // Only a word that sets apart what FOLLOWS it ("except", "without") leaves the words before
    // it an ask: "the hoodie is not needed", "the kettle I don't need" deny what comes before
    // (review 54b: each put the refused item on the approval screen).
    const apartWord = !!negation && /^(?:except|without)$/i.test(negation[0]);
    if (negation && (countApart || !apartWord || !before.trim() || NEGATED.test(before))) continue;
    const tie = takePart(before);
    if (tie) return tie;
  }
  for (const list of wholeLists)
    for (const row of rows.filter((r) => r.list === list && !setApart.has(r.value))) add(row, undefined);
  if (!items.length) return { kind: "none" };
  const found = { kind: "items" as const, items, shown: shown.join(", ") };
  return whys.length ? { ...found, why: whys.join("; ") } : found;
}

/**
 * Whether what the words set apart is counted ("except one mug", "but one", "without 2 mugs"):
 * a count stands between a negation and the word it denies, or is the word it reaches to.
 */
function countSetApart(text: string): boolean {
  const read = readWords(text);
  return read.some((w, i) => {
    if (!w.negation) return false;
    const next = read.slice(i + 1, i + 4);
    const end = next.findIndex((n) => n.denied || n.negation);
    // An article is no count: "except a tee" sets the tee apart.
    const span = (end < 0 ? next : next.slice(0, end + 1))
      .map((n) => n.raw)
      .filter((raw) => !/^an?$/i.test(raw))
      .join(" ");
    return countIn(span) !== undefined;
  });
}

/** The words withoutDenied blanked in `text` (`kept`), in order, or "" where none were. */
function deniedText(text: string, kept: string): string {
  const out: string[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu))
    if (kept.slice(m.index, m.index + m[0].length).trim() === "") out.push(m[0]);
  return out.join(" ");
}

/** The option list each field takes its value from (`available_offers` → `offer_code`), for the answer's headings. */
export function fieldOfLists(
  fields: Record<string, z.ZodType>,
  options: Record<string, unknown>,
): Record<string, string> {
  const out: Record<string, string> = {};
  // A list the field's own description names ("from options.returnable_items") is that field's:
  // rows keyed `id` fit `item_id` as well as `item_ids`, and the return's list was headed "for
  // item_id", the exchange's field (set V).
  for (const [field, schema] of Object.entries(fields))
    for (const [, list] of (schema.description ?? "").matchAll(/\boptions\.([a-z][a-z0-9_]*)/g))
      if (list && Array.isArray(options[list])) out[list] ??= field;
  for (const [field, schema] of Object.entries(fields)) {
    const shape = itemShapeOf(schema);
    if (shape) {
      for (const row of rowsCarrying(shape.key, options)) out[row.list] ??= `${field}[].${shape.key}`;
      continue;
    }
    for (const key of valueKeys(field))
      for (const [list, rows] of Object.entries(options)) {
        if (out[list] || !Array.isArray(rows) || !rows.length) continue;
        if (
          rows.every(
            (r) => r && typeof r === "object" && typeof (r as Record<string, unknown>)[key] === "string",
          )
        )
          out[list] = field;
      }
  }
  return out;
}

/**
 * A field that takes a person's own text (a resolution, a reason, a note): a string with no
 * choices and room for a sentence (no cap, or one of 100 characters or more).
 */
export function isFreeText(field: string, schema: z.ZodType, options: Record<string, unknown>): boolean {
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as Record<string, unknown>;
  } catch {
    return false;
  }
  if (json.type !== "string" || json.enum || json.format || json.pattern) return false;
  if (typeof json.maxLength === "number" && json.maxLength < 100) return false;
  return choicesFor(field, options, schema).length === 0;
}

/**
 * The text a request clearly gives for a free-text field: what follows the field's name and a
 * colon ("resolution: replaced the cable", "reason - arrived broken"), to the end of its line or
 * sentence group; else, when `only` (the one free-text field the node needs), the one quoted
 * span of the request. Anything less is not taken: the agent asks the user.
 */
export function freeTextInWords(field: string, request: string, only: boolean): string | undefined {
  // A field name is code's (never the agent's); escaped all the same.
  const name = field.replace(/[^\p{L}\p{N}_]/gu, "").replace(/_/g, "[ _]");
  const labelled = new RegExp(`(?:^|[^\\p{L}])${name}\\s*(?::|=|-|is)\\s*(.+?)\\s*(?:\\n|;|$)`, "iu").exec(
    request,
  );
  if (labelled?.[1]) return wholeQuote(labelled[1]) ?? labelled[1].trim();
  if (!only) return undefined;
  const quoted = [...request.matchAll(/"([^"]{3,})"|“([^”]{3,})”|«([^»]{3,})»/g)];
  if (quoted.length === 1) return (quoted[0]?.[1] ?? quoted[0]?.[2] ?? quoted[0]?.[3])?.trim();
  if (quoted.length) return undefined;
  // What a request says after its one colon, when what comes before is the ask ("Resolve ticket
  // tkt_2: customer confirmed fix works"): the detail, in the user's words. Round 3's model was
  // asked for the resolution those words already gave (one call). Never a time or an address.
  // A colon inside a quote is the quote's ("note: 'called at 10: no answer'"; mask-quotes.ts).
  const { masked, unmask } = maskQuotes(request);
  const colons = [...masked.matchAll(/:(?=\s)/g)];
  if (colons.length > 1) return undefined;
  // No colon: the one quote in single marks ("add a note saying 'on its way'"), or a message told.
  if (!colons.length) return loneQuote(request) ?? toldMessage(request);
  const at = colons[0]?.index ?? 0;
  const head = masked.slice(0, at).trim().split(/\s+/);
  if (head.length < 2) return undefined;
  // The one quote that opens the detail is the text, whole; what follows it is another ask
  // ("note: 'called, no answer' and give it to Y": the note's text is the quote's alone).
  const detail = masked.slice(at + 1).trimStart();
  const [opening, ...others] = quoteMarks(detail);
  if (opening && !others.length && detail.startsWith(opening)) {
    const quote = wholeQuote(unmask(opening));
    return quote && !/\n/.test(quote) ? quote : undefined;
  }
  // Kept as written, its own closing punctuation included: "… on its way." is the user's sentence
  // (round 8's comment lost its full stop). Quoted, it is the quote's inside, however short.
  const whole = unmask(masked.slice(at + 1)).trim();
  // "On the tee ticket: tell the customer we've sent an L, and …": the detail is itself an ask
  // to tell, and only its message is the text (the whole tail was posted to the customer once).
  if (toldContent(whole)) return toldMessage(whole);
  // Else up to another ask after it, its own full stop kept ("resolution: sent an L. Also give it
  // to Sara": the review found the assignment in the resolution's text, also offered as an ask).
  const quote = wholeQuote(whole);
  if (quote !== undefined) return quote && !/\n/.test(quote) ? quote : undefined;
  const cut = toldUntilOtherAsk(whole, unmask(masked.slice(0, at))).content;
  const tail = whole[cut.length] === "." ? `${cut}.` : cut;
  return tail.split(/\s+/).length >= 2 && !/\n/.test(tail) ? tail : undefined;
}

/** The inside of the one quote of the words (of three characters or more), in any marks. */
function loneQuote(words: string): string | undefined {
  const quotes = [...words.matchAll(QUOTED)].map((q) => q[0].slice(1, -1)).filter((t) => t.length >= 3);
  return quotes.length === 1 ? quotes[0]?.trim() : undefined;
}

const QUOTE_PAIRS: Readonly<Record<string, string>> = wordTable({
  '"': '"',
  "'": "'",
  "“": "”",
  "‘": "’",
  "«": "»",
  "「": "」",
  "『": "』",
});

/**
 * The inside of one pair of quote marks around all of the text, exactly as written (its own
 * full stop, "!" or "?" included): only the marks go, and the sentence's punctuation after the
 * closing one ("'on its way'.") is the request's, not the quote's. Undefined when the text is
 * not one quote (unquoted, or two spans: "'a' and 'b'"); an apostrophe inside ("we can't") stays.
 */
export function wholeQuote(text: string): string | undefined {
  const t = text.trim();
  const open = t[0] ?? "";
  const close = QUOTE_PAIRS[open];
  if (!close) return undefined;
  const end = t.replace(/[.!?…]+$/u, "");
  // The sentence's punctuation goes only when the quote closes right before it.
  const quoted = t.endsWith(close) && t.length >= 2 ? t : end.endsWith(close) ? end : undefined;
  if (!quoted || quoted.length < 2) return undefined;
  const inner = quoted.slice(1, -1);
  if (inner.includes(`${close} `) || inner.includes(` ${open}`)) return undefined;
  return inner.trim();
}

/** Words that ask for a record by its age, and which end of it. */
export const AGE_WORDS: Readonly<Record<string, "oldest" | "newest">> = wordTable({
  oldest: "oldest",
  earliest: "oldest",
  newest: "newest",
  latest: "newest",
  last: "newest",
  // "my most recent order" (review 53b: it read the order on its way).
  recent: "newest",
});
/** Keys a row's age may sit under (its creation time, as the node offers it). */
const AGE_KEYS = ["created", "created_at", "placed", "placed_at", "opened_at"];

export type AgeMatch =
  /** The one record the words name by age; `able`: whether its row says it can take the change. */
  | { kind: "one"; choice: ChoiceRow; said: string; able: boolean }
  /** No row says every word describing the record. */
  | { kind: "none"; said: string }
  /** The asked end is two rows as old: the words name no one record (a list to pick from). */
  | { kind: "tie"; said: string; tied: ChoiceRow[] }
  | undefined;

/**
 * The row a request names by its age ("the oldest open shipping ticket", "my latest order"):
 * among the rows holding every word between the age word and the record's name (`entity`) — in
 * their own words or any of their values (status open, team shipping) — the oldest or newest by
 * the row's creation time, whether or not it can take the change (`able` says which, by its
 * verdict): the user meant that record, so the caller takes it and its own checks answer, never
 * a younger one that can. Undefined when the request asks for no age or the rows carry no time;
 * `tie` when the asked end is two rows as old; `none` when no row says those words.
 */
export function ageInWords(
  rows: ChoiceRow[],
  request: string,
  entity: string,
  able: (r: ChoiceRow) => boolean = openTo,
): AgeMatch {
  const asked = ageAsked(request, entity);
  if (!asked) return undefined;
  const { end, described, said } = asked;
  if (!rows.length || !rows.every(rowAge)) return undefined;
  const sorted = rows
    .filter((r) => saysAll(r, described))
    .sort((a, b) => String(rowAge(a)).localeCompare(String(rowAge(b))));
  if (end === "newest") sorted.reverse();
  const [first, second] = sorted;
  if (!first) return { kind: "none", said };
  if (second && rowAge(second) === rowAge(first))
    return { kind: "tie", said, tied: sorted.filter((r) => rowAge(r) === rowAge(first)) };
  return { kind: "one", choice: first, said, able: able(first) };
}

/** A row whose verdict (`possible`) says it can take the change, or that carries none. */
export function openTo(r: ChoiceRow): boolean {
  return r.row.possible === undefined || r.row.possible === "yes";
}

/**
 * What a request asks by age: which end, and the words describing the record between the age
 * word and its name (`entity`), at most four ("the oldest open shipping ticket" → open, shipping).
 */
export function ageAsked(
  request: string,
  entity: string,
): { end: "oldest" | "newest"; described: string[]; said: string } | undefined {
  const words = wordTokens(request);
  const at = words.findIndex((w) => AGE_WORDS[w]);
  const end = AGE_WORDS[words[at] ?? ""];
  // "least recent" is not read as an age here (its why would say "the newest").
  if (!end || (words[at] === "recent" && words[at - 1] === "least")) return undefined;
  const noun = wordTokens(entity)[0] ?? "";
  // The age word says which record only where the record's name (or "one") follows it within a
  // few words: "the last reply" of "Add a comment on tkt_3 since the last reply was bad" picked
  // the newest ticket over the one named (review 60e).
  const names = [words.indexOf(noun, at + 1), words.indexOf("one", at + 1)].filter(
    (i) => i > at && i - at <= AGE_REACH,
  );
  if (!names.length) return undefined;
  const stop = Math.min(...names);
  const described = words.slice(at + 1, stop).slice(0, 4);
  return { end, described, said: [words[at], ...described, noun].join(" ") };
}

/** How far after an age word ("oldest") the record's name may come: four describing words. */
const AGE_REACH = 5;

/** A row that says every word describing the record, whether or not it can take the change. */
export function saysAll(r: ChoiceRow, described: readonly string[]): boolean {
  return described.every((w) => rowSays(r, w));
}

/** A row's creation time as the node offers it (ISO text), if it carries one. */
export function rowAge(r: ChoiceRow): string | undefined {
  const key = AGE_KEYS.find(
    (k) => typeof r.row[k] === "string" && /^\d{4}-\d\d-\d\d/.test(r.row[k] as string),
  );
  return key ? (r.row[key] as string) : undefined;
}

/** Whether a row says this word of itself: in its own words or as one of its values. */
export function rowSays(r: ChoiceRow, word: string): boolean {
  return r.tokens.has(word) || valuesOf(r).has(word);
}

/** Every string value of a row, lower-case: what it says about itself (status open, team shipping). */
function valuesOf(row: ChoiceRow): Set<string> {
  return new Set(
    Object.values(row.row)
      .filter((v): v is string => typeof v === "string")
      .map((v) => v.toLowerCase()),
  );
}

/**
 * The one row a request describes by what it is ("the unassigned urgent ticket"): the words right
 * before the record's name (`entity`), as far back as each is one of a row's own words or values,
 * held together by exactly one of the rows that can take the change. Words after the name ("…
 * to urgent") are what to do, never what it is. Undefined when no such words, or not exactly one.
 */
export function describedInWords(rows: ChoiceRow[], request: string, entity: string): ChoiceRow | undefined {
  // "The not paid lamp one" describes no paid one: a word the request denies is left out.
  const words = wordTokens(withoutDenied(request));
  const noun = wordTokens(entity)[0] ?? "";
  const at = words.indexOf(noun);
  if (at < 1 || !rows.length) return undefined;
  const says = (r: ChoiceRow, w: string) => r.tokens.has(w) || valuesOf(r).has(w);
  const described: string[] = [];
  for (let i = at - 1; i >= 0; i--) {
    const w = words[i] as string;
    if (!rows.some((r) => says(r, w))) break;
    described.unshift(w);
  }
  // A word every row says tells none apart ("open" among open tickets): it needs another.
  const telling = described.filter((w) => !rows.every((r) => says(r, w)));
  if (!telling.length) return undefined;
  const open = rows.filter((r) => r.row.possible === undefined || r.row.possible === "yes");
  const fits = open.filter((r) => described.every((w) => says(r, w)));
  return fits.length === 1 ? fits[0] : undefined;
}
