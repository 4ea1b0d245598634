import type { BrowseBackend, OutcomeKindLike } from "./browse-backend";
import type { BrowseUri } from "./parse-browse-uri";

/** A rendered page before the browse layer adds its footer and link list. */
export interface PageBody {
  title: string;
  outcome: OutcomeKindLike;
  markdown: string;
  actionId?: string;
  capability?: string;
}

export interface RouteMatch {
  uri: BrowseUri;
  params: Record<string, string>;
}

export interface RouteDefinition {
  /** `scheme://segment/{param}`; the route table is also the search index of the URI structure. */
  pattern: string;
  title: string;
  description: string;
  /** Words people use for this page ("tickets assigned to me", "my orders"). */
  keywords: string[];
  /** Listing/start pages are offered on not-found pages and by structural search. */
  startPoint?: boolean;
  /** Example query suffix for listing routes that take filters, shown in search results. */
  example?: string;
  /**
   * Only admins' agents may see this route. To anyone else it does not exist: navigate and
   * submit answer not_found, and search, start and not-found pages never list it.
   */
  adminOnly?: boolean;
  render(match: RouteMatch, backend: BrowseBackend): Promise<PageBody>;
  /** Present on form routes: `submit(uri, fields)` lands here. */
  submit?(match: RouteMatch, fields: Record<string, unknown>, backend: BrowseBackend): Promise<PageBody>;
}

/** Declares one browse route; the identity function keeps its types checked where it is written. */
export function defineRoute(route: RouteDefinition): RouteDefinition {
  if (!/^[a-z][a-z0-9]*:\/\//.test(route.pattern))
    throw new Error(`route ${route.pattern}: not scheme://path`);
  return route;
}
