import type { ChoiceRow } from "./choice-words";

/**
 * Words that ask for a thing by its price ("the cheapest product", "the priciest lamp"), and
 * which end. Played (issue 23, round 20): "buy one of the cheapest product in the shop" started a
 * checkout that asked for items with nothing to choose from; the model searched the catalog.
 */
const PRICE_ENDS: Record<string, "low" | "high"> = {
  cheapest: "low",
  lowest: "low",
  priciest: "high",
  dearest: "high",
};

/** Keys a row's price may sit under, as a number (the system's own unit: cents, or units). */
const PRICE_KEYS = ["unit_price", "price"];

/** The row a price names, with `why` in a few words ("the cheapest of 9 available"), or a tie. */
export type PriceMatch =
  | { kind: "one"; choice: ChoiceRow; why: string }
  | { kind: "tie"; choices: ChoiceRow[] }
  | undefined;

/**
 * The row a part of a request names by its price: among the rows its other words name best (all
 * rows when they name none), those that can be taken (a sold-out product cannot), the cheapest or
 * dearest. Two at that price are a tie, for the user to pick from; undefined when the words ask
 * for no price end or the rows carry no price. `tokens`: the part's words, as choice-words reads them.
 */
export function pricedInWords(rows: ChoiceRow[], part: string, tokens: string[]): PriceMatch {
  const end = tokens.map((t) => PRICE_ENDS[t]).find(Boolean) ?? mostExpensive(part);
  if (!end) return undefined;
  const open = rows.filter(
    (r) => (r.row.possible === undefined || r.row.possible === "yes") && priceOf(r) !== undefined,
  );
  if (!open.length) return undefined;
  // "the cheapest tee": the tees; words no row holds ("product", "shop") narrow nothing.
  const score = (r: ChoiceRow) => tokens.filter((t) => r.tokens.has(t)).length;
  const top = Math.max(...open.map(score));
  const named = open.filter((r) => score(r) === top);
  const prices = named.map((r) => priceOf(r) as number);
  const want = end === "low" ? Math.min(...prices) : Math.max(...prices);
  const at = named.filter((r) => priceOf(r) === want);
  // Said with the pick: round 21's model checked the catalog again when the answer named the
  // mug with no word of how it was chosen.
  const why = `the ${end === "low" ? "cheapest" : "dearest"} of ${named.length} available`;
  return at.length === 1 && at[0] ? { kind: "one", choice: at[0], why } : { kind: "tie", choices: at };
}

/** "most expensive", "least expensive": the two-word ends. */
function mostExpensive(part: string): "high" | "low" | undefined {
  return /\bmost\s+expensive\b/i.test(part)
    ? "high"
    : /\bleast\s+expensive\b/i.test(part)
      ? "low"
      : undefined;
}

function priceOf(r: ChoiceRow): number | undefined {
  for (const key of PRICE_KEYS) {
    const v = r.row[key];
    if (typeof v === "number" && Number.isFinite(v)) return v;
  }
  return undefined;
}
