import { countOfWord, placeOfWord } from "../number-words";
import { wordTable } from "../word-table";

/**
 * What a price reading needs of a choice row (choice-words.ts's ChoiceRow has it): its value, its
 * own words and the row as offered. Kept structural so choice-words can read prices through here.
 */
export interface PricedRow {
  value: string;
  tokens: Set<string>;
  row: Record<string, unknown>;
}

/**
 * Words that ask for a thing by its price ("the cheapest product", "the priciest lamp"), and
 * which end. Played (issue 23, round 20): "buy one of the cheapest product in the shop" started a
 * checkout that asked for items with nothing to choose from; the model searched the catalog.
 */
const PRICE_ENDS: Readonly<Record<string, "low" | "high">> = wordTable({
  cheapest: "low",
  lowest: "low",
  priciest: "high",
  dearest: "high",
});

/** Words that turn the price down ("not the cheapest", "anything but the priciest"). */
const NEGATION = /\b(?:not|no|never|except|but|other than)\b/i;

/** A key a row's price sits under: `price`, or any `…_price` (a line's price per unit). */
const PRICE_KEY = /^(?:\w+_)?price$/;

/**
 * The row a price names, with `why` in a few words ("the cheapest of 9 available"); the rows
 * "the two cheapest" name (`some`, different rows); or a tie for the user to break.
 */
export type PriceMatch<R extends PricedRow> =
  | { kind: "one"; choice: R; why: string }
  | { kind: "some"; choices: R[]; why: string }
  | { kind: "tie"; choices: R[] }
  | undefined;

/**
 * The row a part of a request names by its price: among the rows its other words name best (all
 * rows when they name none), those that can be taken (a sold-out product cannot), the cheapest or
 * dearest. Two at that price are a tie, for the user to pick from, and so are the named rows when
 * none can be taken; undefined when the words ask for no price end, turn it down ("not the
 * cheapest"), or the rows carry no price. `tokens`: the part's words, as choice-words reads them.
 */
export function pricedInWords<R extends PricedRow>(rows: R[], part: string, tokens: string[]): PriceMatch<R> {
  const end = tokens.map((t) => PRICE_ENDS[t]).find(Boolean) ?? mostExpensive(part);
  if (!end) return undefined;
  // "Not the cheapest one": a price the words turn down names nothing.
  if (NEGATION.test(part)) return undefined;
  if (pricesSomethingElse(rows, tokens)) return undefined;
  const priced = rows.filter((r) => priceOf(r) !== undefined);
  if (!priced.length) return undefined;
  // "the cheapest tee": the tees; words no row holds ("product", "shop") narrow nothing. The
  // words narrow first: "the cheapest headphones", all sold out, never names the mug instead.
  const score = (r: R) => tokens.filter((t) => r.tokens.has(t)).length;
  const top = Math.max(...priced.map(score));
  const named = priced
    .filter((r) => score(r) === top)
    .filter((r) => r.row.possible === undefined || r.row.possible === "yes");
  if (!named.length) return { kind: "tie", choices: priced.filter((r) => score(r) === top) };
  const ranked = [...named].sort((a, b) =>
    end === "low"
      ? (priceOf(a) as number) - (priceOf(b) as number)
      : (priceOf(b) as number) - (priceOf(a) as number),
  );
  // Said with the pick: round 21's model checked the catalog again when the answer named the
  // mug with no word of how it was chosen.
  const endWord = end === "low" ? "cheapest" : "dearest";
  // "The two cheapest products" are two different ones, not two of the cheapest (a review found
  // 2 × the mug); "two of the cheapest" keeps its count for the one row, where the caller reads it.
  const many = rankedCount(part);
  // "2 cheapest mugs" where the words name one mug: two of it (the caller reads the count), not
  // "fits 1: the mug; ask which one".
  const one = ranked.length === 1 && top > 0;
  if (many && many > 1 && !one) {
    if (ranked.length < many) return { kind: "tie", choices: ranked };
    // A price shared across the cut ("the two cheapest" of 18, 25, 25) is the user's to break.
    const edge = priceOf(ranked[many - 1] as R);
    const past = ranked.slice(many).filter((r) => priceOf(r) === edge);
    if (past.length) return { kind: "tie", choices: ranked.filter((r) => priceOf(r) === edge) };
    return {
      kind: "some",
      choices: ranked.slice(0, many),
      why: `the ${many} ${endWord} of ${named.length} available`,
    };
  }
  // "The second cheapest", "the 3rd most expensive": that place in the order (played: "the
  // second cheapest product" took the cheapest). Past what can be taken, the rows to ask about.
  const place = rankedPlace(part) ?? 1;
  if (place > ranked.length) return { kind: "tie", choices: ranked };
  const want = priceOf(ranked[place - 1] as R);
  const at = ranked.filter((r) => priceOf(r) === want);
  const why = `the ${place > 1 ? `${ordinal(place)} ` : ""}${endWord} of ${named.length} available`;
  return at.length === 1 && at[0] ? { kind: "one", choice: at[0], why } : { kind: "tie", choices: at };
}

/** Words for any thing a list holds ("the cheapest product", "the two priciest items"). */
const THING_WORDS = new Set(["product", "item", "thing", "one", "article", "piece", "stuff"]);
/** Words between a price end and its noun that say nothing of which noun ("the cheapest available tee"). */
const FILLERS = new Set(["available", "possible", "single", "other", "new", "just"]);

/**
 * Whether the price end qualifies a noun that is none of the rows' ("the cheapest way to ship my
 * cart", "the cheapest shipping"): then it asks about something else, and names no row. Played
 * (issue 23): "what's the cheapest way to ship my cart …?" bought one mug, the cheapest line of
 * the cart, instead of the cart. The noun is the word after the end (past a count and fillers);
 * none ("the two cheapest"), a word of a row, of its list's name, or a word for any thing, is the
 * rows'.
 */
function pricesSomethingElse<R extends PricedRow>(rows: R[], tokens: string[]): boolean {
  const at = tokens.findIndex((t) => PRICE_ENDS[t] || t === "expensive");
  if (at < 0) return false;
  const noun = tokens.slice(at + 1).find((t) => !countOfWord(t) && !placeOfWord(t) && !FILLERS.has(t));
  if (!noun || THING_WORDS.has(noun)) return false;
  return !rows.some(
    (r) => r.tokens.has(noun) || (r as { listWords?: string[] }).listWords?.some((w) => w === noun),
  );
}

/** A price end as written, its two-word forms included. */
const PRICE_END = "(?:(?:most|least)\\s+expensive|cheapest|lowest|priciest|dearest)";

/** The count right before the price end: "the two cheapest", "3 most expensive"; not "two of the cheapest". */
function rankedCount(part: string): number | undefined {
  const before = new RegExp(`([\\p{L}\\p{N}]+)\\s+${PRICE_END}\\b`, "iu").exec(part)?.[1];
  // "The cheapest two products" counts after the end too (a review found 2 × the mug).
  const after = new RegExp(`\\b${PRICE_END}\\s+([\\p{L}\\p{N}]+)`, "iu").exec(part)?.[1];
  return (before && countOfWord(before)) || (after && countOfWord(after)) || undefined;
}

/** The place right before the price end: "the second cheapest", "2nd most expensive". */
function rankedPlace(part: string): number | undefined {
  const before = new RegExp(`([\\p{L}\\p{N}]+)\\s+${PRICE_END}\\b`, "iu").exec(part)?.[1];
  return before ? placeOfWord(before) : undefined;
}

/** 2 → "2nd", as the answer says a place. */
function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}

/** "most expensive", "least expensive": the two-word ends. */
function mostExpensive(part: string): "high" | "low" | undefined {
  return /\bmost\s+expensive\b/i.test(part)
    ? "high"
    : /\bleast\s+expensive\b/i.test(part)
      ? "low"
      : undefined;
}

/** The row's price, as a number in the system's own unit (cents, or units). */
function priceOf(r: PricedRow): number | undefined {
  for (const [key, v] of Object.entries(r.row))
    if (PRICE_KEY.test(key) && typeof v === "number" && Number.isFinite(v)) return v;
  return undefined;
}
