import { takesEmailAddress } from "../connectors/sdk/define-route";
import { emailAddresses } from "./address-words";
import type { RouteDefinition } from "./browse-routes";
import { STOP, words } from "./route-words";

/**
 * The one listing a search for an email address opens when its words name no page: the only
 * start-point listing among `routes` the caller may search that filters by an address
 * (`"email address"`, or a choice filter of addresses), which the words then set
 * (address-words.ts). Issue 23: a customer's bare address found nothing, and the model opened
 * every record to read who raised each. Of several, the
 * one the other words name by its title or address. Null when the query holds no address, or
 * when no listing, or no one listing, fits (the answer then lists pages as before).
 */
export function addressedListing(
  routes: readonly RouteDefinition[],
  q: string,
  searchable: (route: RouteDefinition) => boolean,
): RouteDefinition | null {
  if (!emailAddresses(q).length) return null;
  const taking = routes.filter(
    (r) =>
      r.startPoint &&
      !r.pattern.includes("{") &&
      !r.submit &&
      Object.values(r.filters ?? {}).some(takesEmailAddress) &&
      searchable(r),
  );
  if (taking.length <= 1) return taking[0] ?? null;
  // Several (an imported system's people and requests): the one the other words name by a
  // word of its title or address that the others do not share ("legacy" names them all).
  const said = new Set(words(q.replace(/\S+@\S+/g, " ")).filter((w) => !STOP.has(w)));
  const own = taking.map((r) => new Set(words(`${r.title} ${r.pattern}`)));
  const named = taking.filter((_, i) =>
    [...(own[i] as Set<string>)].some((w) => said.has(w) && own.some((o) => !o.has(w))),
  );
  return named.length === 1 ? (named[0] as RouteDefinition) : null;
}
