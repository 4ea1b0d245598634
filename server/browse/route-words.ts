import { CONTRACTION, FUNCTION_WORDS, POSSESSIVE } from "../function-words";
import type { RouteDefinition } from "./browse-routes";

/** Search's word index over the route table: a query's words, and the routes that have them. */

export function words(text: string): string[] {
  // A possessive's "s" is no word: "a ticket's priority" made every such page a match for a
  // query's one-letter word (a size "S", a grade), as the pages' text held the letter too.
  const lower = text.toLowerCase().replace(POSSESSIVE, "").replace(CONTRACTION, "");
  const latin = lower.match(/[a-z0-9_]+/g) ?? [];
  const cjk = [...lower.matchAll(/[\u4e00-\u9fff]+/g)].flatMap((m) => {
    const s = m[0];
    const grams: string[] = [];
    for (let i = 0; i < s.length - 1; i++) grams.push(s.slice(i, i + 2));
    return s.length === 1 ? [s] : grams;
  });
  return [...latin.map((w) => (w.length > 3 && w.endsWith("s") ? w.slice(0, -1) : w)), ...cjk];
}

/** The query's own spelling of the chosen words (as `words()` reads them), in its order, once each: "headphones", not "headphone". */
export function speltIn(q: string, chosen: ReadonlySet<string>): string {
  return [
    ...new Set(
      (q.toLowerCase().match(/[a-z0-9_]+/g) ?? []).filter((t) => words(t).some((w) => chosen.has(w))),
    ),
  ].join(" ");
}

export const STOP = new Set([
  "a",
  "an",
  "the",
  "to",
  "me",
  "my",
  "i",
  "of",
  "for",
  "show",
  "list",
  "all",
  "find",
  "get",
  "with",
  "is",
  "are",
  "and",
  "or",
  "what",
  "which",
  "in",
  "on",
]);

/**
 * English words that frame a request to read rather than say what to look for: sent to a
 * listing's text search they would match nothing ("open tickets please" found no ticket), and
 * in a page's score they would dilute the words that name it. The words a request is put in
 * (function-words.ts), and the ones that ask to be shown. Passed through `words()`, as a query
 * is: listed as said, "this" and "does" never matched the query's "thi" and "doe".
 */
export const FRAMING = new Set(
  words(
    `${FUNCTION_WORDS.join(" ")} count every give having how kind kindly let look looking mention mentioning pull see sell tell`,
  ),
);

/**
 * Words that ask whether something is possible ("which … can I still …"): the question's frame,
 * never what to look for, so never a listing's text filter nor the words that pick a capability.
 * Only those beyond FRAMING's ("can", "still", "which" are function words); read after it.
 */
export const ASKING = new Set(words("able allowed cannot eligible possible"));

/**
 * Words that only connect the others (prepositions, articles, determiners, pronouns,
 * conjunctions, auxiliaries) or ask to see a list: they say how the words relate, never what a
 * record's text holds, so they never become a listing's text filter. Round 5's model searched
 * "products by price": the price sorted the listing and the filter searched for "by". Negations
 * (without, not, no) are no connectors: they change what is looked for.
 * Compared after `words()`.
 */
export const CONNECTING = new Set(
  words(
    "a an the this that these those each every both either neither another other such " +
      // A pro-form stands for the noun before it ("the closed ones"): as a text filter, "ones"
      // found the ticket about headphones.
      "one ones " +
      "my mine our ours your yours his her hers its their theirs me us i we you he she it they them " +
      "by with within for of in into on onto at to from via per over under across along among " +
      "about around after before between through toward towards upon off out up down as than " +
      "regarding concerning " +
      "and or but nor so yet then also plus " +
      "is are was were be been being am has have had do does did will shall " +
      "all any some show list display give get fetch view browse see find search please " +
      // A comparison asks of the rows, never of their text (set AE: "which team has more open
      // tickets" searched `more`, and found none).
      "more fewer fewest less most least vs versus compared compare",
  ),
);

/** Words that only place a sort ("sorted by price"): consumed when the words sorted the listing. */
export const PLACING_SORT = new Set(words("sort sorted sorting ordered ordering arranged ranked"));

/** A route's words: what names it (title, address, keywords), its description, and its filter values. */
interface RouteWords {
  hay: Set<string>;
  description: Set<string>;
  /** The words that name the route's records ("widget"): its title's and keywords', no value's. */
  noun: Set<string>;
  /** Each filter value as words name it: a declared value ("in_stock") or people's words for one ("shiny coat"). */
  values: string[][];
}

const routeWords = new WeakMap<RouteDefinition, RouteWords>();

/** A route's words, computed once: search runs over every route of every connector a tenant has. */
function wordsOf(route: RouteDefinition): RouteWords {
  let cached = routeWords.get(route);
  if (!cached) {
    const values = filterValues(route);
    const valueWords = new Set(values.flat());
    cached = {
      hay: new Set(words(`${route.title} ${route.pattern} ${route.keywords.join(" ")}`)),
      description: new Set(words(route.description)),
      noun: new Set(
        words(`${route.title} ${route.keywords.join(" ")}`).filter((w) => !valueWords.has(w) && !STOP.has(w)),
      ),
      values,
    };
    routeWords.set(route, cached);
  }
  return cached;
}

/** Filters that sort the rows rather than say which: their values name no record. */
const ORDERING = /^(sort|sort_?by|order|order_?by|orderby|ordering)$/i;

/**
 * Each value a route's filters declare, and each phrase it declares people use for one
 * (`valueWords`), as the words that name it: `in_stock` → in, stock; "with a shiny coat" →
 * shiny, coat.
 */
function filterValues(route: RouteDefinition): string[][] {
  const naming = (text: string) =>
    words(text.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_\-./]+/g, " ")).filter(
      (w) => !STOP.has(w) && !FRAMING.has(w) && !ASKING.has(w),
    );
  const out: string[][] = [];
  for (const [key, spec] of Object.entries(route.filters ?? {})) {
    if (!Array.isArray(spec) || ORDERING.test(key)) continue;
    for (const value of spec as readonly string[]) out.push(naming(value));
    for (const [value, said] of Object.entries(route.valueWords?.[key] ?? {}))
      if (spec.includes(value)) for (const phrase of said) out.push(naming(phrase));
  }
  return out.filter((w) => w.length > 0);
}

/**
 * The query's words that name a filter value of the route, every word of the value said, where
 * the query also names the route's records by another word: "widgets with a shiny coat" names
 * the listing's finish filter; "shiny coat" alone names no listing of widgets.
 */
function valueWordsNamed(query: readonly string[], own: RouteWords): Set<string> {
  const said = new Set(query);
  const named = new Set(own.values.filter((v) => v.every((w) => said.has(w))).flat());
  return query.some((w) => own.noun.has(w) && !named.has(w)) ? named : new Set();
}

/**
 * The route table as an inverted index, built once per table: each word with the routes that
 * have it in their title, pattern or keywords (and, apart, in their description). A search then
 * scores only the routes its words name, not every route of fifty connected systems.
 */
const indexes = new WeakMap<RouteDefinition[], Map<string, RouteDefinition[]>>();

function routeIndex(table: RouteDefinition[]): Map<string, RouteDefinition[]> {
  let index = indexes.get(table);
  if (!index) {
    index = new Map();
    for (const route of table) {
      const { hay, description } = wordsOf(route);
      for (const word of new Set([...hay, ...description])) {
        const list = index.get(word);
        if (list) list.push(route);
        else index.set(word, [route]);
      }
    }
    indexes.set(table, index);
  }
  return index;
}

/** The routes any of the query's words name, in table order. */
export function candidateRoutes(table: RouteDefinition[], query: string[]): RouteDefinition[] {
  const index = routeIndex(table);
  const found = new Set(query.flatMap((word) => index.get(word) ?? []));
  return table.filter((route) => found.has(route));
}

/** Whether a route's own words (title, address, keywords, description) hold every word of the query. */
export function routeHoldsEvery(query: readonly string[], route: RouteDefinition): boolean {
  const own = wordsOf(route);
  const named = valueWordsNamed(query, own);
  return query.length > 0 && query.every((w) => own.hay.has(w) || own.description.has(w) || named.has(w));
}

/**
 * How well a route's words fit the query's. A filter value the query names whole, beside a word
 * for the route's records, counts as the route's own words, and one more: a listing the words
 * name both by its records and by one of its values wins over a page that only holds a word
 * (set K: such words opened an account page whose keywords held the value's words, not the
 * listing filtered by them).
 */
export function scoreRoute(query: string[], route: RouteDefinition): number {
  const own = wordsOf(route);
  const { hay, description } = own;
  const named = valueWordsNamed(query, own);
  let score = named.size ? 1 : 0;
  for (const word of query) {
    if (hay.has(word) || named.has(word)) score += 2;
    else if (description.has(word)) score += 0.5;
  }
  // Listing routes answer structural queries (a listing's name alone) before detail routes.
  if (score > 0 && route.startPoint) score += 0.5;
  if (score > 0 && route.pattern.includes("{")) score -= 0.25;
  return score;
}
