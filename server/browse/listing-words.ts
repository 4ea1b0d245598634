import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import { type AmountBound, amountWords } from "./amount-words";
import type { RouteDefinition } from "./browse-routes";
import { type Excluded, namedFilters } from "./filter-words";
import { ASKING, CONNECTING, FRAMING, PLACING_SORT, speltIn, words } from "./route-words";
import { sortFromWords } from "./sort-words";
import { type TimeWindow, timeWindow } from "./time-window-words";

/**
 * What a search's words do to the listing it opens: the filter values they name become filters,
 * and the words left over (neither naming the page nor one of its filter values) narrow it
 * through the listing's free-text filter when it declares one. Round 3's model searched "login
 * ticket" and got all nine tickets with no word that nothing matched "login".
 */
export interface NarrowedListing {
  /** The listing's URI with the named filters (and the free-text filter) added. */
  uri: string;
  /** The URI without the free-text filter: "all tickets" when the words match nothing. */
  withoutWords: string;
  /** The words left over, as the query spelt them ("login"); empty when every word was used. */
  leftover: string;
  /** The free-text filter the leftover words went to, or null when the listing has none. */
  textFilter: string | null;
  /** Sort words the listing declares no sort for ("cheapest"), as said; empty otherwise. */
  unsorted: string;
  /** The order the words sorted it by, with the parameters sent ("oldest first", `sort=created_at`); empty when they did not. */
  sorted: { order: string; params: string[] } | null;
  /** The filters the words named, as said back ("team = Shipping"). */
  filtered: string[];
  /** Words that name values of two filters, each said in a line: applied as neither. */
  ambiguous: string[];
  /** Declared values the words deny: left out of the rows where the listing is complete. */
  excluded: Excluded[];
  /**
   * Words the query denies that only text could match ("not about login"), as it spelt them:
   * never the text filter; the rows holding them are left out where the listing is whole
   * (without-denied-words.ts).
   */
  denied: string[];
  /** The amount the words bound ("under $30"): the rows' money column is compared with it (amount-rows.ts). */
  amount: AmountBound | null;
  /** The time window the words set ("in the last 3 days"): the rows' time column is compared with it (time-window-rows.ts). */
  window: TimeWindow | null;
}

/** A URI with query parameters added (`a=1`, already encoded), after `?` or `&` as it needs. */
export function withParams(base: string, more: string[]): string {
  return more.length ? `${base}${base.includes("?") ? "&" : "?"}${more.join("&")}` : base;
}

/** A parameter that sorts a listing (`sort=price`, `order_by=-created_at`). */
const SORT_PARAM = /^(sort|sort_?by|order_?by|orderby|sortby|ordering)=/i;

/**
 * The opened listing with each filter whose value the words name, one value per filter ("oldest
 * open tickets" → `?status=open&sort=oldest`, "team shipping" → `?team_id=shipping`; the rules are
 * namedFilters'). The words left are sent as the listing's free-text value, a plain string to its
 * own search, never a pattern.
 */
export async function narrowedListing(
  backend: BrowseBackend,
  uri: string,
  route: RouteDefinition | undefined,
  qWords: string[],
  q: string,
): Promise<NarrowedListing> {
  const none = {
    uri,
    withoutWords: uri,
    leftover: "",
    textFilter: null,
    unsorted: "",
    sorted: null,
    filtered: [],
    ambiguous: [],
    excluded: [],
    denied: [],
    amount: null,
    window: null,
  };
  if (!route) return none;
  // "under 30 dollars" compares an amount: its words (the number too) are never text to match.
  const amount = amountWords(q);
  // Sort words sort (or are said not to), and are never the text filter.
  const sort = sortFromWords(q, route.filters);
  // "in the last 3 days" bounds a time column: its words and "new" are no text (a declared value
  // they name, "closed", still sets its filter: namedFilters reads those from the query itself).
  const window = timeWindow(q);
  const used = new Set([
    ...(window ? [...window.words, "new"] : []),
    ...words(`${route.title} ${route.pattern} ${route.keywords.join(" ")} ${route.description}`),
    ...sort.used,
    ...(amount?.words ?? []),
  ]);
  const params: string[] = sort.params.filter((p) => !uri.includes(`${p.split("=")[0]}=`));
  const sorted = params.length ? { order: sort.order, params: [...params] } : null;
  const textFilter = Object.entries(route.filters ?? {}).find(([, v]) => v === "free text")?.[0] ?? null;
  const unexplained = new Set(qWords.filter((w) => !used.has(w) && !FRAMING.has(w) && !ASKING.has(w)));
  const given = new Set([
    ...new URLSearchParams(uri.split("?")[1] ?? "").keys(),
    ...params.map((p) => p.split("=")[0] ?? ""),
  ]);
  // A sort ask's words name no filter value ("most urgent first" ranks; it keeps every priority).
  // Blanked where they stand, as written: no word of the query becomes a pattern.
  const unsorted = sort.said.reduce((text, said) => {
    const at = text.toLowerCase().indexOf(said.toLowerCase());
    return at < 0 ? text : `${text.slice(0, at)}${" ".repeat(said.length)}${text.slice(at + said.length)}`;
  }, q);
  const named = await namedFilters(backend, route, withoutFieldNames(unsorted, route), unexplained, (key) =>
    given.has(key),
  );
  for (const w of named.used) used.add(w);
  params.push(...named.params);
  // A denied word only text could match: the rows holding it go, never the rows found by it.
  const denied = speltIn(q, new Set([...named.denied].filter((w) => !CONNECTING.has(w))))
    .split(" ")
    .filter(Boolean);
  const said = {
    filtered: named.shown,
    ambiguous: named.ambiguous,
    excluded: named.excluded,
    denied,
    amount,
    window,
  };
  const withoutWords = withParams(uri, params);
  // Words that place a sort are used once the words sorted the listing ("sorted by price").
  if (params.some((p) => SORT_PARAM.test(p))) for (const w of PLACING_SORT) used.add(w);
  // The query's own spelling of the words left ("headphones", not the stem "headphone"); words
  // that only frame a request ("find tickets about login please"), ask whether something is
  // possible ("… I can still buy") or only connect the others ("products by price") never
  // become the text filter.
  const left = new Set(
    qWords.filter((w) => !used.has(w) && !FRAMING.has(w) && !ASKING.has(w) && !CONNECTING.has(w)),
  );
  const leftover = speltIn(q, left).slice(0, 100);
  if (!leftover || !textFilter || uri.includes(`${textFilter}=`))
    return {
      uri: withoutWords,
      withoutWords,
      leftover,
      textFilter: null,
      unsorted: sort.unsorted,
      sorted,
      ...said,
    };
  return {
    uri: withParams(uri, [...params, `${textFilter}=${encodeURIComponent(leftover)}`]),
    withoutWords,
    leftover,
    textFilter,
    unsorted: sort.unsorted,
    sorted,
    ...said,
  };
}

/**
 * The words with each time field's name an agent wrote blanked where it holds a declared value's
 * word ("shipped_at", "paid_at", "delivered_at"): a column's name, never the value. Set CG: "my
 * order with headphones shipped_at" filtered the orders to `status=shipped`, and the player read
 * them again to learn whether a delivered order held headphones. Only a name ending as a time
 * field's does (review 64b: a record's id, `pm_alice_balance`, or `status_shipped` written for the
 * filter, named values as before).
 */
function withoutFieldNames(q: string, route: RouteDefinition): string {
  const values = new Set(
    Object.values(route.filters ?? {}).flatMap((spec) =>
      Array.isArray(spec) ? spec.map((v) => v.toLowerCase()) : [],
    ),
  );
  return q.replace(/[\p{L}\p{N}]+(?:_[\p{L}\p{N}]+)+/gu, (name) => {
    const parts = name.toLowerCase().split("_");
    const timed = TIME_FIELD_ENDS.has(parts.at(-1) ?? "");
    return timed && parts.some((part) => values.has(part)) ? " ".repeat(name.length) : name;
  });
}

/** How the names of fields holding a time end (`shipped_at`, `delivered_on`, `returns_until`). */
const TIME_FIELD_ENDS = new Set(["at", "on", "date", "time", "until"]);
