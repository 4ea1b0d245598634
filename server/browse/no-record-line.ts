import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import { code, link } from "../connectors/sdk/markdown";
import { routeVisibleTo } from "./browse-routes";

/**
 * "No record matches `login problem`; look through [Tickets](…), [Orders](…) or try other words":
 * the listings (no parameters, start points) of the systems whose records were searched.
 */
export function noRecordLine(
  backend: BrowseBackend,
  shownQ: string,
  sources: readonly AnyConnector[],
  alone: string[] | null,
): string {
  const listings = sources
    .flatMap((c) => c.routes.filter((r) => r.startPoint && !r.pattern.includes("{") && !r.submit).slice(0, 1))
    .filter((r) => routeVisibleTo(r, backend))
    .slice(0, 3)
    .map((r) => link(r.title, r.pattern));
  // One line, not the start list again: the listings themselves, or other words.
  const where = listings.length
    ? `look through ${listings.join(", ")} or try other words`
    : `try other words, or ${link("the start page", "signpost://start")} for every listing`;
  return `No record matches ${code(shownQ)}${alone ? `, nor ${alone.map(code).join(" or ")} alone` : ""}; ${where}.`;
}
