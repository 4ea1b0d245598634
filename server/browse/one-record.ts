import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import type { RouteDefinition } from "../connectors/sdk/define-route";
import { routeAt } from "../connectors/sdk/form-links";
import { code, escapeText, link } from "../connectors/sdk/markdown";
import { parseBrowseUri } from "../connectors/sdk/parse-browse-uri";
import { matchRoute, routeTable } from "./browse-routes";
import type { NarrowedListing } from "./listing-words";
import { navigate } from "./navigate";
import { pageSays } from "./page-says";
import { openedRecord } from "./record-answer";
import type { BrowsePage } from "./render-page";
import { speltIn, words } from "./route-words";
import type { RecordHit } from "./search-records";
import { rowsHoldingEvery } from "./unfiltered-words-line";

/**
 * Issue 23: a search whose words fit one record by its text answered a listing of one row, and
 * the model's next call opened that row. Such a record's page is the answer instead, said after
 * one line of where the words found it. Only where exactly one record fits every word and the
 * words do not ask for a list; any doubt leaves the listing as it is.
 */

/** A record a search's words fit alone, and where they found it. */
export interface FoundRecord {
  /** The record's page. */
  uri: string;
  /** The words that found it, as the query spelt them: its page must say every one. */
  words: string;
  /** The listing it was found in, where one is known. */
  listing?: { title: string; uri: string };
  /** By the listing's text filter (its one row), the one row whose cells show every word, or the systems' record search. */
  by: "filter" | "row" | "search";
  /** The words asked, where `words` are the part of them that found it (none held them all). */
  asked?: string;
}

/** Words that ask for every record of a kind, whatever their number. */
const LIST_WORDS = new Set(["list", "all", "every"]);

/**
 * Whether the words ask for a list: "list", "all" or "every", or a listing's noun said in the
 * plural ("which tickets …" of Tickets, "orders with …" of Orders). A word ending in -ss or -us
 * ("address", "status") is no plural. Read from the query as spelt, its titles as search reads them.
 */
export function asksForList(q: string, titles: readonly string[]): boolean {
  const nouns = new Set(titles.flatMap((t) => words(t)));
  return (q.toLowerCase().match(/[a-z0-9_]+/g) ?? []).some(
    (t) => LIST_WORDS.has(t) || (t.length > 3 && /[^su]s$/.test(t) && nouns.has(t.slice(0, -1))),
  );
}

/**
 * The one record an opened listing's words found: its text filter left one row of one in all,
 * or (a listing without one) one row of a complete listing shows every word in its cells. The
 * row's own page must be known; a listing with more pages than this one, or named in the
 * plural, finds none.
 */
export function listingRowFound(
  listing: NarrowedListing,
  page: BrowsePage,
  route: RouteDefinition | undefined,
  q: string,
): FoundRecord | null {
  const { leftover, textFilter } = listing;
  if (!leftover || !route || page.outcome !== "applied" || asksForList(q, [route.title])) return null;
  const complete = typeof page.total === "number" && page.rows === page.total;
  if (!complete) return null;
  const ids = textFilter
    ? page.rows === 1
      ? (page.items ?? []).map((i) => i.id)
      : []
    : rowsHoldingEvery(leftover, page.markdown);
  const only = ids.length === 1 ? page.items?.find((i) => i.id === ids[0]) : undefined;
  if (!only?.uri) return null;
  return {
    uri: only.uri,
    words: leftover,
    listing: { title: page.title, uri: page.uri },
    by: textFilter ? "filter" : "row",
  };
}

/**
 * The one record one word of several found alone, where no row held them all (the text filter's
 * each-word fallback, opened-section.ts): a complete listing of one row whose cells show that
 * word, as listingRowFound takes one; `asked`, the words searched first, is said with it. A
 * listing of several rows stays the answer.
 */
export function wordRowFound(
  page: BrowsePage,
  route: RouteDefinition | undefined,
  q: string,
  word: string,
  asked: string,
): FoundRecord | null {
  if (!route || page.outcome !== "applied" || asksForList(q, [route.title])) return null;
  if (page.rows !== 1 || page.total !== 1) return null;
  const only = page.items?.length === 1 ? page.items[0] : undefined;
  const [shows, other] = rowsHoldingEvery(word, page.markdown);
  if (!only?.uri || other || shows !== only.id) return null;
  return { uri: only.uri, words: word, asked, listing: { title: page.title, uri: page.uri }, by: "filter" };
}

/**
 * The one record the systems' record search found for the words (not each word alone): a hit
 * linking one page, a record's page (its route takes the record's id), with nothing said beside
 * it, and the query naming no listing in the plural. `searched`: the words the search sent, as
 * `words()` reads them.
 */
export function searchHitFound(
  hits: readonly RecordHit[],
  among: readonly AnyConnector[],
  q: string,
  searched: readonly string[],
): FoundRecord | null {
  const spelt = speltIn(q, new Set(searched));
  const [hit, other] = hits;
  const uri = hit?.links.length === 1 ? hit.links[0] : undefined;
  if (!hit || other || !uri || !spelt || hit.line.includes("\n")) return null;
  const route = (u: string) => {
    const parsed = parseBrowseUri(u);
    return parsed.ok ? matchRoute(parsed.value, among)?.route : undefined;
  };
  if (!route(uri)?.pattern.includes("{")) return null;
  const listings = routeTable(among).flatMap((r) => (r.pattern.includes("{") ? [] : [r.title]));
  if (asksForList(q, listings)) return null;
  const read = hit.listings.length === 1 ? hit.listings[0] : undefined;
  const title = read ? route(read)?.title : undefined;
  return { uri, words: spelt, ...(read && title ? { listing: { title, uri: read } } : {}), by: "search" };
}

/** How each way of finding says it found one record. */
const FOUND_AS: Record<FoundRecord["by"], string> = {
  filter: "its one row",
  row: "the one row showing every word",
  search: "the one record holding every word",
};

/**
 * The found record's page, opened as `navigate` opens it (the same permission check and audit
 * row) and carried as a record a search names is, after the line of where the words found it;
 * null (the listing stays the answer) where it does not open or its page does not say every word.
 */
export async function oneRecord(backend: BrowseBackend, found: FoundRecord | null): Promise<string | null> {
  if (!found) return null;
  const page = await navigate(backend, found.uri);
  if (page.outcome !== "applied" || !pageSays(page.markdown, found.words)) return null;
  const where = found.listing ? ` in ${link(found.listing.title, found.listing.uri)}` : "";
  // Found by part of the words: which part, and that the rest found nothing with it. Unless its
  // page says the rest too (set BQ: "damaged parcel" found "Parcel damaged" by `damaged` alone,
  // the system's filter reading the words as one phrase, and the model doubted the ticket).
  const whole = !!found.asked && pageSays(recordValues(page.markdown), found.asked);
  const part = found.asked && !whole ? ` alone, not every word of ${code(found.asked)},` : "";
  const by = whole && found.asked ? found.asked : found.words;
  // What the system's search read, so "the one" is final (set AO: "which tickets mention a
  // refund?" found one, and the model listed every ticket twice to learn what had been searched).
  const read =
    found.by === "search" && found.listing
      ? (await routeAt(backend, found.listing.uri))?.textSearches
      : undefined;
  const searched = read ? ` (searched: ${escapeText(read)}; no other holds them)` : "";
  return `Found by ${code(by)}${part}${where}: ${FOUND_AS[found.by]}${searched}.\n\n${openedRecord(page)}`;
}

/**
 * The record's own values on its page: not its fields' labels, nor the lines of what may or may
 * not be done (review 61: "damaged approval" was found by every word, `approval` being a word of
 * the page's "no approval" lines, `order` of its "order id" label).
 */
function recordValues(markdown: string): string {
  return (markdown.split(/\n## Actions\b/)[0] ?? "")
    .replace(/^- \*\*not now:\*\*.*$/gm, "")
    .replace(/\*\*[^*\n]+:\*\*/g, "");
}
