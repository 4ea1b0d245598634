import { words } from "./route-words";

/**
 * A bound on an amount the words set ("under 30 dollars", "at least €50", "between $10 and $20"):
 * a listing's money column is compared with it (amount-rows.ts), and its words are never the
 * text filter. Played (issue 23): "which products do you sell under 30 dollars?" searched the
 * catalog's text for "30" and answered with a $89 backpack and $249 headphones.
 */
export interface AmountBound {
  /** Rows below this are left out (`minStrict`: rows equal to it too). */
  min?: number;
  minStrict?: boolean;
  /** Rows above this are left out (`maxStrict`: rows equal to it too). */
  max?: number;
  maxStrict?: boolean;
  /** The words (as `words()` reads them) the bound was said in: never the text filter. */
  words: string[];
  /** The bound as the query spelt it ("under 30 dollars"), for a line saying it was not applied. */
  phrase: string;
  /** The currency the words named ("30 euros": EUR), where they named one. */
  currency?: string;
}

/** The currency a sign or word names. */
const CURRENCIES: ReadonlyArray<[RegExp, string]> = [
  [/\$|dollar|usd|bucks/, "USD"],
  [/€|euro|eur/, "EUR"],
  [/£|pound|gbp/, "GBP"],
  [/¥|yen|jpy/, "JPY"],
];

/** The currency a text names by its sign or word ("$18.00", "30 euros", "18.00 EUR"), if any. */
export function currencyIn(text: string): string | undefined {
  const lower = text.toLowerCase();
  return CURRENCIES.find(([pattern]) => pattern.test(lower))?.[1];
}

const SIGN = "[$€£¥]";
const UNIT = String.raw`(?:dollars?|usd|bucks|euros?|eur|pounds?|gbp|yen|jpy)\b`;
/** An amount as people write one: a currency sign or word on either side, thousands, cents. */
const AMOUNT = String.raw`(${SIGN}\s?)?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(\s?${UNIT})?`;
/**
 * After a bare number (no sign, no currency word), a word that counts something else ("more
 * than 2 items", "over 3 days ago"): that number is no amount of money.
 */
const COUNTS_OTHER = /^\s*(?!and\b|or\b|in\b|for\b|each\b|apiece\b|only\b|please\b|total\b)[a-z]/;

/** The comparison words before an amount: which side each bounds, and whether the amount itself is kept. */
const COMPARISONS: ReadonlyArray<{ pattern: string; side: "max" | "min"; strict: boolean; counts?: true }> = [
  { pattern: "under|below|beneath|less than|lower than|cheaper than", side: "max", strict: true },
  { pattern: "at most|no more than|not more than", side: "max", strict: false },
  // Words that as often bound how many rows to show ("list my orders, up to 20"): money only
  // with a sign or a currency word.
  { pattern: "up to|max(?:imum)?(?: of)?", side: "max", strict: false, counts: true },
  {
    pattern: "over|above|more than|greater than|higher than|pricier than|more expensive than",
    side: "min",
    strict: true,
  },
  { pattern: "at least|no less than|not less than", side: "min", strict: false },
  { pattern: "min(?:imum)?(?: of)?", side: "min", strict: false, counts: true },
];

const amountOf = (whole: string, cents: string | undefined) =>
  Number(whole.replace(/,/g, "")) + (cents ? Number(cents.padEnd(2, "0")) / 100 : 0);

/** Whether a matched amount is money: a sign or currency word says so; a bare one must not count something else. */
function isMoney(text: string, end: number, sign: string | undefined, unit: string | undefined): boolean {
  return Boolean(sign || unit) || !COUNTS_OTHER.test(text.slice(end));
}

/**
 * A verb of price before the bound is the bound's own word ("cost more than $100"): set BO's
 * "products cost more than $100" searched the catalog's text for "cost", found nothing, and the
 * bound was said not applied.
 */
const PRICED = String.raw`(?:(?:cost|costs|costing|priced|sells?\s+for|selling\s+for)\s+)?`;

/**
 * The amount bound the words set, or null: a number alone ("30 mugs", "order 30") sets none, nor
 * one that counts something else ("more than 2 items"). Both sides may be said ("over 10 and
 * under 30 dollars").
 */
export function amountWords(q: string): AmountBound | null {
  const text = q.toLowerCase();
  const between = new RegExp(String.raw`\b${PRICED}between\s+${AMOUNT}\s+(?:and|-|to)\s+${AMOUNT}`).exec(
    text,
  );
  if (between) {
    const [phrase, s1, w1 = "", c1, , s2, w2 = "", c2, u2] = between;
    if (isMoney(text, between.index + phrase.length, s1 ?? s2, u2)) {
      const [low, high] = [amountOf(w1, c1), amountOf(w2, c2)].sort((a, b) => a - b);
      return { min: low, max: high, words: words(phrase), phrase, currency: currencyIn(phrase) };
    }
  }
  const bound: AmountBound = { words: [], phrase: "" };
  for (const c of COMPARISONS) {
    if (bound[c.side] !== undefined) continue;
    const found = new RegExp(String.raw`\b${PRICED}(?:${c.pattern})\s+${AMOUNT}`).exec(text);
    if (!found) continue;
    const [phrase, sign, whole = "", cents, unit] = found;
    if (c.counts && !sign && !unit) continue;
    if (!isMoney(text, found.index + phrase.length, sign, unit)) continue;
    bound[c.side] = amountOf(whole, cents);
    bound[c.side === "max" ? "maxStrict" : "minStrict"] = c.strict;
    bound.words.push(...words(phrase));
    bound.phrase = bound.phrase ? `${bound.phrase}, ${phrase}` : phrase;
  }
  if (!bound.words.length) return null;
  const currency = currencyIn(bound.phrase);
  return currency ? { ...bound, currency } : bound;
}

/** Whether an amount passes the bound. */
export function withinBound(amount: number, bound: AmountBound): boolean {
  if (bound.min !== undefined && (bound.minStrict ? amount <= bound.min : amount < bound.min)) return false;
  if (bound.max !== undefined && (bound.maxStrict ? amount >= bound.max : amount > bound.max)) return false;
  return true;
}

/** The bound in words, each amount as `shown` writes it: "under $30.00", "between $10.00 and $20.00". */
export function boundText(bound: AmountBound, shown: (amount: number) => string): string {
  const { min, max } = bound;
  if (min !== undefined && max !== undefined && !bound.minStrict && !bound.maxStrict)
    return `between ${shown(min)} and ${shown(max)}`;
  const low = min === undefined ? "" : `${bound.minStrict ? "over" : "at least"} ${shown(min)}`;
  const high = max === undefined ? "" : `${bound.maxStrict ? "under" : "at most"} ${shown(max)}`;
  return [low, high].filter(Boolean).join(" and ");
}
