import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { RouteDefinition, RouteMatch } from "../connectors/sdk/define-route";
import { escapeText } from "../connectors/sdk/markdown";
import { withPageScope } from "../connectors/sdk/page-scope";
import { formatBrowseUri, parseBrowseUri } from "../connectors/sdk/parse-browse-uri";
import { type MayNavigate, navigableRoutes } from "./navigable-routes";
import { namedItem } from "./records-read";

/**
 * A filter on what state a record is in (`status`, `state`, `ticket_status`), or on a level of
 * its (`priority`, `severity`): set BK's "high-priority tickets" showed `priority = high`, and
 * nothing said an urgent ticket was left out.
 */
export const STATUS_KEY = /(^|_)(status|state|priority|severity)$/i;

/** Parameters that say how to read or order a listing, not which records it holds. */
export const READING = /^(sort|order|order_by|sort_by|page|per_page|columns|cursor)$/i;

/** Sibling listings counted at once: each count is a call to the system on one navigate. */
const IN_FLIGHT = 2;

/** `run` over `items`, at most two at a time, in their order. */
export async function inTurn<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += IN_FLIGHT)
    out.push(...(await Promise.all(items.slice(i, i + IN_FLIGHT).map(run))));
  return out;
}

/** A listing holding at most this many records names it (id and title) beside its count. */
const NAMED_ROWS = 1;

/** A sibling listing counted and found to hold no record (not the same as one that could not be counted). */
export const EMPTY = Symbol("empty");

/**
 * Counts a sibling of the listing shown (the same route with other filters), for a line that says
 * what the shown filters left out: "pending (2)", or its one record named ("1: tkt_1 Charged
 * twice?"). Each count is asked the caller's permission like a navigate to that listing (null
 * where refused or failed: a count nobody could take proves nothing); one record is named only
 * where its own page may be opened (a rule may deny one record). The counter keeps the answer of
 * "which pages may be opened" for every count of one line.
 */
export function siblingCounter(route: RouteDefinition, match: RouteMatch, backend: BrowseBackend) {
  // Asked only when a record is to be named: most lines name none.
  let checker: Promise<MayNavigate> | undefined;
  const may = async (uri: string) => {
    checker ??= backend.connectors().then((among) => navigableRoutes(backend, among));
    return (await checker)(uri);
  };
  /**
   * The listing with `query` instead of the shown one's (its page left out): how many records it
   * holds (undefined where the system gives no count), and its one record where it holds one and
   * that record's page may be opened.
   */
  return async (query: Record<string, string>): Promise<Counted | typeof EMPTY | null> => {
    const target = formatBrowseUri(match.uri.scheme, match.uri.segments, {
      ...query,
      per_page: String(NAMED_ROWS),
    });
    const parsed = parseBrowseUri(target);
    if (!parsed.ok) return null;
    const sibling = formatBrowseUri(match.uri.scheme, match.uri.segments, query);
    if ((await backend.authorize("navigate", sibling)).decision !== "allow") return null;
    // Its own scope: the links it makes are not links of the page shown.
    const { value: page } = await withPageScope(backend.redact, () =>
      route.render({ uri: parsed.value, params: match.params }, backend),
    );
    if (page.outcome !== "applied") return null;
    if (typeof page.total !== "number") return {};
    if (page.total <= 0) return EMPTY;
    // Played (issue 23, round 14): "not included: pending (1)" sent the model to list the pending
    // tickets to see whether the one left out was the one the user meant.
    const one = page.total <= NAMED_ROWS && page.items?.length === page.total ? page.items[0] : undefined;
    return one && (!one.uri || (await may(one.uri))) ? { total: page.total, one } : { total: page.total };
  };
}

/** What one sibling listing holds, as siblingCounter read it. */
export interface Counted {
  total?: number;
  one?: { id: string; title: string };
}

/** "2", or "1: tkt_1 Charged twice?" (the id alone where the title is the value counted by). */
export function countSaid(counted: Counted, value?: string): string {
  const { total, one } = counted;
  if (!one) return String(total);
  return `${total}: ${one.title === value ? escapeText(one.id) : namedItem(one)}`;
}
