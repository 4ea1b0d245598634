import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { FilterChoice, FilterSpec, RouteDefinition } from "../connectors/sdk/define-route";
import { escapeText } from "../connectors/sdk/markdown";
import { formatBrowseUri, parseBrowseUri } from "../connectors/sdk/parse-browse-uri";
import { navigate } from "./navigate";
import { words } from "./route-words";

/** "each team", "per team", "by team", "every owner": a count is asked for each value of a thing. */
const PER =
  /(?<!\b(?:sort|sorted|order|ordered|rank|ranked|group)\s)\b(?:each|per|every|by)\s+(\p{L}{3,40})\b/giu;

/** "which team has the most …", "what teammate has the fewest …": a count per value, ranked. */
const RANKED =
  /\b(?:which|what)\s+(\p{L}{3,40})\s+(?:has|have|had|holds?|gets?)\s+(?:the\s+)?(?:most|fewest|least|more|fewer|highest|lowest)\b/giu;

/** "teammate with the most tickets", "the team with the fewest …": the same, said as a noun's (set BQ). */
const RANKED_WITH = /\b(\p{L}{3,40})\s+with\s+(?:the\s+)?(?:most|fewest|least|highest|lowest)\b/giu;

/**
 * The words with a ranked count's ranking word taken out where a value of the listing's filters
 * follows it ("which teammate has the most urgent tickets" → "… has the urgent tickets"): it ranks
 * the counts, and "most urgent" read as a sort the listing does not declare left `urgent` no
 * filter, so every ticket was counted (review 58c). Anything else stays whole ("the most recent",
 * a sort; "the highest priority", said not to sort).
 */
export function withoutRankWords(q: string, filters: FilterSpec | undefined): string {
  const values = new Set(
    Object.values(filters ?? {}).flatMap((v) =>
      Array.isArray(v) ? v.map((x: string) => x.toLowerCase()) : [],
    ),
  );
  const unranked = (text: string, ranked: RegExp) =>
    text.replace(new RegExp(ranked.source, ranked.flags), (m: string, _noun: string, at: number) => {
      const rank = /\S+$/.exec(m)?.[0] ?? "";
      const next = /^\s*(\p{L}+)/u.exec(text.slice(at + m.length))?.[1]?.toLowerCase() ?? "";
      return values.has(next) ? m.slice(0, m.length - rank.length) : m;
    });
  return unranked(unranked(q, RANKED), RANKED_WITH);
}

/**
 * The words with "number of" taken out: they ask a count, like "how many" (set BJ: "number of
 * tickets per team" searched the tickets' text for `number`, found nothing, and the nine rows
 * were shown beside the counts that answered it).
 */
export function withoutCountWords(q: string): string {
  return q.replace(/\b(?:the\s+)?(?:total\s+)?(?:number|tally)\s+of\b/gi, " ");
}

/** Filters that say how to read a listing, never what its records are. */
const NOT_A_THING = new Set(["q", "sort", "mine", "page", "per_page", "columns", "cursor"]);

/**
 * At most this many values are counted, two at a time: each count is one call to the system,
 * as a navigate to the listing with that value (the caller's permission asked, audited).
 */
const COUNTED = 8;
const IN_FLIGHT = 2;

/**
 * The count of the listing's records for every value of the filter the words ask a count per
 * ("How many open tickets does each team have?", "open tickets by team"), with the listing's
 * other filters kept, zero counts included: set AM's models read the open tickets' team column,
 * then the teammates page to learn whether a team with none existed. Only a filter with a known
 * set of values (declared, or read by its `choices`) and at most COUNTED of them, whose counts
 * add up to the listing's `total`; null otherwise or where a count could not be had (nothing
 * said beats a count that is wrong).
 */
export async function countsPerValue(
  backend: BrowseBackend,
  route: RouteDefinition | undefined,
  uri: string,
  q: string,
  total: number | undefined,
): Promise<string | null> {
  const filters = route?.filters;
  if (!filters || route.pattern.includes("{") || typeof total !== "number") return null;
  const parsed = parseBrowseUri(uri);
  if (!parsed.ok) return null;
  const { scheme, segments, query } = parsed.value;
  for (const key of perKeys(filters, q)) {
    const spec = filters[key];
    if (query[key] !== undefined || !spec) continue;
    const values = await valuesOf(spec, backend);
    if (!values?.length || values.length > COUNTED) continue;
    const { page: _page, cursor: _cursor, ...kept } = query;
    const count = async (v: FilterChoice) => {
      const page = await navigate(
        backend,
        formatBrowseUri(scheme, segments, { ...kept, [key]: v.value, per_page: "1" }),
      );
      return page.outcome === "applied" && typeof page.total === "number" ? page.total : null;
    };
    const counts: Array<number | null> = [];
    for (let i = 0; i < values.length; i += IN_FLIGHT)
      counts.push(...(await Promise.all(values.slice(i, i + IN_FLIGHT).map(count))));
    // The values must share out the listing's rows, each once: a filter another one overrides
    // (`?mine=1` over `?assignee_id=`) counted every row for every teammate (review 54b).
    const sum = counts.reduce<number>((a, c) => a + (c ?? 0), 0);
    if (counts.some((c) => c === null) || sum !== total) return null;
    const each = values.map((v, i) => {
      const name =
        v.label && v.label !== v.value
          ? `${escapeText(v.label)} (${escapeText(v.value)})`
          : escapeText(v.value);
      return `${name} ${counts[i]}`;
    });
    return `Per ${escapeText(key)}, every one of its ${values.length} values, with this listing's filters: ${each.join(", ")}.`;
  }
  return null;
}

/**
 * Whether the words ask only a count ("How many tickets are in each status?", "count of tickets
 * by team", "which teammate has the fewest tickets"): the counts per value answer them whole, and
 * the rows are left out (set BC: "count of tickets by status" read 617 tokens, 350 of them the
 * nine rows). Words that also ask for the rows or another question keep them ("… and who raised
 * them", "list …").
 */
export function countIsTheAnswer(q: string): boolean {
  const lower = q
    .toLowerCase()
    .trim()
    .replace(/[?.!]+$/, "");
  const counts =
    /^(?:so\s+|and\s+)?(?:how\s+many|count|number\s+of|tally)\b/.test(lower) ||
    RANKED_ONLY.test(lower) ||
    RANKED_NOUN_ONLY.test(lower);
  // One question: no second sentence, and no question word after its first words ("…, who has
  // them", "… and how many are urgent", "which is the urgent one").
  const later = lower.replace(/^(?:so\s+|and\s+)?(?:how\s+many|which|what|who)\b/, "");
  return counts && !/[?.!;]/.test(lower) && !ALSO_ASKS.test(later);
}

const RANKED_ONLY =
  /^(?:which|what|who)\b[^,?]*\b(?:has|have|had|holds?|gets?)\s+(?:the\s+)?(?:most|fewest|least|highest|lowest)\b/;
const RANKED_NOUN_ONLY = /^(?:the\s+)?\p{L}+\s+with\s+(?:the\s+)?(?:most|fewest|least|highest|lowest)\b/u;
/** Words asking more than a count: the rows themselves, or a second question. */
const ALSO_ASKS =
  /\b(?:list|show|display|name|names|give|tell|who|whom|whose|which|what|when|where|why|how|ones|plus|their|its|also|along|and\s+(?:the|their|its|each|every|all))\b/;

/**
 * The one listing among the ranked routes whose records the words name ("tickets") and that
 * filters by the thing they ask a count per ("per status"), or null: "How many tickets are there
 * in each status?" otherwise tied the listing with the form that sets a ticket's status.
 */
export function perValueListing(
  routes: ReadonlyArray<{ r: RouteDefinition }>,
  q: string,
  mine: boolean,
): string | null {
  const said = new Set(words(q));
  const fits = routes
    .map(({ r }) => r)
    .filter(
      (r) =>
        !r.pattern.includes("{") &&
        !r.submit &&
        r.startPoint &&
        !!r.filters &&
        words(r.title).every((w) => said.has(w)) &&
        perKeys(r.filters, q).length > 0,
    );
  const [one] = fits;
  if (!one || fits.length > 1) return null;
  return mine && one.example?.endsWith("?mine=1") ? one.example : one.pattern;
}

/**
 * The words (as `words()` spells them) that ask a count per one of the route's filters: they
 * said how to count, never what a record's text holds ("open tickets per agent" searched `agent`).
 */
export function perWordsUsed(route: RouteDefinition | undefined, q: string): Set<string> {
  const used = new Set<string>();
  if (route?.filters)
    for (const said of perKeys(route.filters, q, true)) for (const w of words(said)) used.add(w);
  return used;
}

/** Words that ask a count, wherever they stand ("… count", "number of …", "how many …"). */
const COUNTING = /\b(?:count|counts|counted|number|tally|how\s+many)\b/i;
/** Every plural word, read as a thing counted per value where the words count ("status" is none: review 61d). */
const PLURAL = /\b(\p{L}{3,40}[^su\s]s)\b/giu;

/** The filters of `filters` the words ask a count per, in the words' order (or the words that named them). */
function perKeys(filters: FilterSpec, q: string, asSaid = false): string[] {
  const keys: string[] = [];
  // Set BS: "teammates open tickets count" — a plural beside a word of counting asks per value too.
  const plurals = COUNTING.test(q) ? [...q.matchAll(PLURAL)] : [];
  for (const m of [...q.matchAll(PER), ...q.matchAll(RANKED), ...q.matchAll(RANKED_WITH), ...plurals]) {
    const word = (m[1] ?? "").toLowerCase();
    // A plural counted ("tickets count") must name a filter's records, never only a key's word.
    if (plurals.includes(m) && !/s$/.test(word)) continue;
    // As said or in the singular ("teams", "priorities"); "status" is its own.
    const forms = new Set([word, word.replace(/s$/, ""), word.replace(/es$/, ""), word.replace(/ies$/, "y")]);
    const key = Object.entries(filters).find(
      ([k, spec]) =>
        !NOT_A_THING.has(k) &&
        (forms.has(k.toLowerCase().split("_")[0] ?? "") ||
          (typeof spec === "object" && "choices" in spec && !!spec.valuesAre?.some((v) => forms.has(v)))),
    )?.[0];
    const named = asSaid ? m[1] : key;
    if (key && named && !keys.includes(named)) keys.push(named);
  }
  return keys;
}

/** The values a filter takes, as declared or read by its choices; null where not known. */
async function valuesOf(
  spec: FilterSpec[string],
  backend: BrowseBackend,
): Promise<readonly FilterChoice[] | null> {
  if (Array.isArray(spec)) return spec.map((value: string) => ({ value, label: value }));
  if (typeof spec !== "object" || !("choices" in spec) || spec.emailAddresses) return null;
  // A value read under several labels ("Sara Shipping", "Sara") is one value, named by its first.
  const read = await spec.choices(backend);
  return read?.filter((c, i) => read.findIndex((o) => o.value === c.value) === i) ?? null;
}
