import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { RouteDefinition } from "./browse-routes";
import { asksWhen, eventTimeColumns } from "./event-time-columns";
import { navigate } from "./navigate";

/** How many of the best ranked listings are read for the time field of an event the words ask about. */
const LISTINGS_READ = 2;

/**
 * The listing whose rows keep the time of the event the words ask "when" about, as a URI to open,
 * or null: "when was my backpack delivered?" names no listing by its title, but the orders
 * listing's rows hold `delivered_at` (issue 23: no listing opened, the model got links and four
 * records, and opened the order to read the date). Only start-point listings needing no
 * parameters count, the best ranked few, each read once; only the time fields they declare
 * (`moreColumns`, the table's own columns are already shown) are compared with the words.
 */
export async function eventListing(
  backend: BrowseBackend,
  routes: Array<{ r: RouteDefinition }>,
  query: string,
  mine: boolean,
): Promise<string | null> {
  if (!asksWhen(query)) return null;
  const listings = routes
    .map(({ r }) => r)
    .filter((r) => !r.pattern.includes("{") && !r.submit && r.startPoint)
    .slice(0, LISTINGS_READ);
  for (const listing of listings) {
    const uri = mine && listing.example?.endsWith("?mine=1") ? listing.example : listing.pattern;
    const page = await navigate(backend, uri);
    if (page.outcome === "applied" && eventTimeColumns(query, page.moreColumns ?? []).columns.length)
      return uri;
  }
  return null;
}
