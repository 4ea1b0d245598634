import { escapeText, link } from "../connectors/sdk/markdown";
import type { RouteDefinition } from "./browse-routes";
import type { MayNavigate } from "./navigable-routes";
import type { BrowsePage } from "./render-page";

/** At most this many records of a kind are named in an empty answer; more are only counted. */
const NAMED = 10;
/** Words of a record's title an empty answer keeps: enough to see it is not the one asked for. */
const TITLE_WORDS = 5;

/**
 * What a search that found nothing read of one listing, for the caller, as it can be checked:
 * "all 9 tickets you can see (subjects and descriptions of tickets): tkt_1 Charged twice?; …".
 * `page` is the listing as the caller opened it (navigate: their tenant, their permissions), so
 * only records they could open are counted or named. A few are named; more are counted, with the
 * listing's filters to narrow by. A system that does not say how many is said to have searched
 * itself. Null when the listing did not open for the caller: nothing of it is told. A row whose
 * own page the caller may not open is neither named nor counted, as search leaves out such hits.
 *
 * Issue 23: after "No record matches" every model playing the agent listed all tickets "to be
 * sure"; the answer now says what it read, so that call has nothing left to find.
 */
export async function recordsRead(
  route: RouteDefinition,
  page: BrowsePage,
  listing: string,
  may: MayNavigate,
): Promise<string | null> {
  if (page.outcome !== "applied") return null;
  const lower = route.title.toLowerCase();
  // A title that is no plain plural ("Tickets, most recently updated first") says "records".
  const kind = /^[a-z]+s$/.test(lower) ? lower : "records";
  const fields = route.textSearches ? ` (searched: ${escapeText(route.textSearches)})` : "";
  const all = link(route.title, listing);
  const filtered = listing.includes("?");
  if (page.total === undefined) return `${all}${fields}: searched by the system itself`;
  const head = (n: number) =>
    `${filtered ? "the" : "all"} ${n} ${kind} you can see${filtered ? ` at ${all}` : ""}${fields}`;
  const listed = page.items ?? [];
  if (page.total <= NAMED && listed.length === page.total) {
    const open = await Promise.all(listed.map((i) => (i.uri ? may(i.uri) : true)));
    const items = listed.filter((_, n) => open[n]);
    return items.length ? `${head(items.length)}: ${items.map(namedItem).join("; ")}` : head(0);
  }
  // The listing's own filters (not its text search or its order): where a narrower look starts.
  const narrow = Object.entries(route.filters ?? {})
    .filter(([name, values]) => values !== "free text" && name !== "sort")
    .map(([name]) => name);
  return `${head(page.total)}; ${narrow.length ? `narrow ${all} by ${narrow.join(", ")}` : all}`;
}

/** A record as a line names it: its id and the first few words of its title. */
export function namedItem(item: { id: string; title: string }): string {
  return `${escapeText(item.id)} ${shortTitle(item.title)}`;
}

function shortTitle(title: string): string {
  const words = title.split(/\s+/).filter(Boolean);
  const kept = words.slice(0, TITLE_WORDS).join(" ");
  return escapeText(words.length > TITLE_WORDS ? `${kept}…` : kept);
}
