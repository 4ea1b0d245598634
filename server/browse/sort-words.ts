import type { FilterSpec } from "../connectors/sdk/define-route";
import { words } from "./route-words";

/**
 * Sort words of a search ("cheapest first", "most expensive", "newest", "oldest") matched to the
 * sort a listing declares, by the names of its values: a value that is the word itself
 * (`oldest`), or one naming what the words sort by and the same direction (`price`, `-price`,
 * `price_desc`, `created_at`, `-created_at`). Round 4's model searched "<listing> cheapest first"
 * and got "nothing matches `cheapest first`": sort words are never a listing's text filter.
 */

type Basis = "price" | "time" | "rank" | "change";

interface Ask {
  pattern: RegExp;
  basis: Basis;
  descending: boolean;
}

/** Verbs for a record's coming into being, as "most recently …" says them. */
const CREATED = "(?:created|opened|placed|raised|filed|submitted|added|made)";

const ASKS: Ask[] = [
  {
    pattern:
      /\b(cheapest|least expensive|lowest[- ]priced?|lowest prices?|(price )?low to high|inexpensive first)\b/gi,
    basis: "price",
    descending: false,
  },
  {
    pattern:
      /\b(most expensive|priciest|dearest|highest[- ]priced?|highest prices?|(price )?high to low)\b/gi,
    basis: "price",
    descending: true,
  },
  {
    // "most recently opened", "opened most recently": a record's coming into being, never its
    // last change ("most recently updated" is no age, so it stays unsorted here).
    pattern: new RegExp(
      `\\b(newest|latest|most recent|most recently ${CREATED}|${CREATED} most recently|youngest)\\b`,
      "gi",
    ),
    basis: "time",
    descending: true,
  },
  { pattern: /\b(oldest|earliest|least recent)\b/gi, basis: "time", descending: false },
  // A record's last change is no age: its own sort (set CM: "tickets most recently updated"
  // searched the tickets' text for "recently").
  {
    pattern:
      /\b(most recently (?:updated|changed|modified)|(?:updated|changed|modified) most recently|(?:recently|latest) (?:updated|changed|modified))\b/gi,
    basis: "change",
    descending: true,
  },
  {
    pattern:
      /\b(least recently (?:updated|changed|modified)|longest (?:unchanged|untouched|since (?:an? )?update))\b/gi,
    basis: "change",
    descending: false,
  },
  // "most urgent first" ranks; its "urgent" is no filter value (set AK: it filtered the tickets to
  // the urgent ones, none, and the answer read as no open tickets at all).
  {
    pattern: /\b(most urgent|highest priority|most important|top priority|most severe)\b/gi,
    basis: "rank",
    descending: true,
  },
  {
    pattern: /\b(least urgent|lowest priority|least important|least severe)\b/gi,
    basis: "rank",
    descending: false,
  },
];

/**
 * Words that only place the sort, consumed with it only where they place it: "sorted by" /
 * "sort" right before a sort ask, "sorted" right after one, and "first"/"last" right after one
 * or closing the query ("newest tickets first"). Elsewhere they are words of their own: in
 * "cheapest first aid kit" the text searched is "first aid kit".
 */
const PLACING_BEFORE = /\b(sorted|sort|ordered)(\s+by)?\s+$/;
const PLACING_AFTER = /^\s+(sorted|ordered)\b|^\s+(first|last)\b(?=\s*([,.;!?]|$))/;
const PLACING_END = /\b(first|last)\s*[.!?]*\s*$/;

/** What each basis is named in a sort value (not "updated": last changed is no age). */
const BASIS_WORDS: Record<Basis, Set<string>> = {
  price: new Set(["price", "cost", "amount", "cheapest", "expensive", "priciest"]),
  change: new Set(["updated", "update", "modified", "changed", "change"]),
  rank: new Set(["priority", "urgency", "severity", "rank", "importance"]),
  time: new Set([
    "created",
    "creation",
    "date",
    "time",
    "timestamp",
    "age",
    "newest",
    "oldest",
    "latest",
    "earliest",
  ]),
};
const DESCENDING = new Set([
  "desc",
  "descending",
  "high",
  "highest",
  "newest",
  "latest",
  "expensive",
  "priciest",
]);
const ASCENDING = new Set(["asc", "ascending", "low", "lowest", "oldest", "earliest", "cheapest"]);

/** Query keys that take a sort, and those that take only its direction (`order=asc|desc`). */
const SORT_KEY = /^(sort|sort_?by|order_?by|orderby|sortby|ordering|sort_?order|order)$/i;
const DIRECTION_KEY = /^(order|direction|dir|sort_?dir(ection)?|sort_?order)$/i;

export interface SortFromWords {
  /** `key=value` pairs to add to the listing's URI. */
  params: string[];
  /** The query's sort words after `words()`: none of them is a filter's text. */
  used: Set<string>;
  /** The sort words as said, when the listing declares no sort that takes them; else empty. */
  unsorted: string;
  /** The order `params` ask for, in words ("oldest first"); empty when there are none. */
  order: string;
  /** The sort asks as said ("most urgent"): never a filter's value either. */
  said: string[];
}

/** Each basis and direction in the words a list's heading says it. */
const ORDER_WORDS: Record<Basis, [string, string]> = {
  price: ["cheapest first", "most expensive first"],
  time: ["oldest first", "newest first"],
  rank: ["least urgent first", "most urgent first"],
  change: ["least recently updated first", "most recently updated first"],
};

/** The sort the words ask of a listing with these filters, and the words it used. */
export function sortFromWords(q: string, filters: FilterSpec | undefined): SortFromWords {
  const lower = q.toLowerCase();
  const placing: string[] = [];
  const asked = ASKS.flatMap((ask) =>
    [...lower.matchAll(ask.pattern)].map((m) => {
      const before = lower.slice(0, m.index ?? 0);
      const after = lower.slice((m.index ?? 0) + m[0].length);
      const placed = [before.match(PLACING_BEFORE)?.[0], after.match(PLACING_AFTER)?.[0]];
      placing.push(...placed.filter((p): p is string => !!p));
      // "newest last" is the oldest first.
      const last = /^\s+last\b/.test(after.match(PLACING_AFTER)?.[0] ?? "");
      return { ask, said: m[0], descending: last ? !ask.descending : ask.descending };
    }),
  );
  const none = { params: [], used: new Set<string>(), unsorted: "", order: "", said: [] };
  const first = asked[0];
  if (!first) return none;
  const closing = lower.match(PLACING_END)?.[0];
  const saidWords = [...asked.map((a) => a.said), ...placing, ...(closing ? [closing] : [])];
  const used = new Set(words(saidWords.join(" ")));
  const params = sortParams(first.ask.basis, first.descending, filters ?? {});
  return {
    params,
    used,
    unsorted: params.length ? "" : asked.map((a) => a.said).join(", "),
    order: params.length ? ORDER_WORDS[first.ask.basis][first.descending ? 1 : 0] : "",
    said: asked.map((a) => a.said),
  };
}

/** The `key=value` pairs for one sort on a listing's filters, or none when it declares no such sort. */
function sortParams(basis: Basis, descending: boolean, filters: FilterSpec): string[] {
  let best: { key: string; value: string; rank: number; directed: boolean } | null = null;
  for (const [key, values] of Object.entries(filters)) {
    if (!Array.isArray(values) || !SORT_KEY.test(key)) continue;
    for (const value of values) {
      const tokens = valueTokens(value);
      const named = tokens.filter((t) => BASIS_WORDS[basis].has(t));
      if (!named.length) continue;
      const down = value.startsWith("-") || tokens.some((t) => DESCENDING.has(t));
      const directed = down || tokens.some((t) => ASCENDING.has(t));
      // A value with no direction (`price`) sorts ascending; descending only with a direction
      // filter. A sort by last change (`updated`) lists the latest first, as such listings do.
      const ascending = basis !== "change";
      if (directed ? down !== descending : descending === ascending && !directionKey(filters, key)) continue;
      // A value that is the very word asked (`oldest`) beats one naming the field (`created_at`).
      const rank = tokens.length === 1 && named.length === 1 ? 2 : 1;
      if (!best || rank > best.rank) best = { key, value, rank, directed };
    }
  }
  if (!best) return [];
  const params = [`${best.key}=${encodeURIComponent(best.value)}`];
  const dirKey = best.directed ? null : directionKey(filters, best.key);
  if (dirKey) {
    const values = filters[dirKey] as readonly string[];
    const want = values.find((v) => v.toLowerCase() === (descending ? "desc" : "asc"));
    if (want) params.push(`${dirKey}=${want}`);
  }
  return params;
}

/** The filter that takes only a sort direction (`asc`/`desc`), other than the sort key itself. */
function directionKey(filters: FilterSpec, not?: string): string | null {
  for (const [key, values] of Object.entries(filters))
    if (
      key !== not &&
      Array.isArray(values) &&
      DIRECTION_KEY.test(key) &&
      values.some((v) => v.toLowerCase() === "asc") &&
      values.some((v) => v.toLowerCase() === "desc")
    )
      return key;
  return null;
}

/** A sort value's words: `-created_at` → created, at; `priceDesc` → price, desc. */
function valueTokens(value: string): string[] {
  return value
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Whether a page already states the order the sort words ask for ("Newest first." for "my
 * latest order"): a listing that declares no sort but is in that order needs no "did not sort"
 * line, which read as if the list were in another order.
 */
export function orderAlreadyStated(said: string, page: string): boolean {
  const ask = ASKS.find((a) => new RegExp(a.pattern.source, "i").test(said));
  if (!ask) return false;
  const same = ASKS.filter((a) => a.basis === ask.basis && a.descending === ask.descending);
  return same.some((a) => new RegExp(`(${a.pattern.source})\\s+first\\b`, "i").test(page));
}
