import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { RouteDefinition } from "./browse-routes";
import { asksWhen, eventTimeColumns } from "./event-time-columns";
import { navigate } from "./navigate";
import { words } from "./route-words";
import { columnsWordsName } from "./words-rows-show";

/** How many of the best ranked listings are read for the fields the words name. */
const LISTINGS_READ = 2;

/**
 * The listing whose rows hold, beyond their table, a field the words ask about, as a URI to open,
 * or null. Two kinds of words count, the same two widened-listing.ts adds columns for:
 * - "when" words naming an event: "when was my <record> delivered?" names no listing by its
 *   title, but a listing's rows hold `delivered_at` (issue 23: no listing opened, the model got
 *   links and four records, and opened the record to read the date);
 * - a word naming a field by its name's words, beside a word naming the listing by its title
 *   (issue 23: "my <records> <field word>" answered five record lines showing no such field, as
 *   a form taking that field outranked the listing and the listing's table did not show it; the
 *   model navigated twice more to read the column). A title word alone names the records, not a
 *   field.
 * Only start-point listings needing no parameters count, the best ranked few, each read once;
 * only the fields they declare (`moreColumns`, the table's own columns are already shown) are
 * compared with the words, by stems, never as patterns.
 */
export async function columnsListing(
  backend: BrowseBackend,
  routes: Array<{ r: RouteDefinition }>,
  query: string,
  qWords: string[],
  mine: boolean,
): Promise<string | null> {
  const when = asksWhen(query);
  const listings = routes
    .map(({ r }) => r)
    .filter((r) => !r.pattern.includes("{") && !r.submit && r.startPoint)
    .slice(0, LISTINGS_READ);
  for (const listing of listings) {
    const own = new Set(words(`${listing.title} ${listing.pattern}`));
    const titled = words(listing.title).some((w) => qWords.includes(w));
    const rest = qWords.filter((w) => !own.has(w));
    if (!when && !(titled && rest.length)) continue;
    const uri = mine && listing.example?.endsWith("?mine=1") ? listing.example : listing.pattern;
    const page = await navigate(backend, uri);
    if (page.outcome !== "applied") continue;
    const fields = page.moreColumns ?? [];
    if (when && eventTimeColumns(query, fields).columns.length) return uri;
    if (titled && columnsWordsName(rest.join(" "), fields).columns.length) return uri;
  }
  return null;
}
