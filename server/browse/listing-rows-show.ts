import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { RouteDefinition } from "./browse-routes";
import { navigate } from "./navigate";
import { words } from "./route-words";

/**
 * The listing a query names by its title together with values its rows show ("high or urgent
 * <records> not resolved": a priority column holds high and urgent), as a URI to open, or null.
 * Such words also name the forms that set those values, which then rank above the listing, so
 * no listing led the answer and the search opened none: issue 23's model got only links and
 * read the whole listing itself. Only a listing needing no parameters whose title a word names
 * counts, the best ranked such one; it is read once, and opened only when its table shows one of
 * the other words (compared by stems, never as patterns), so a question about something else
 * opens nothing.
 */
export async function listingRowsShow(
  backend: BrowseBackend,
  routes: Array<{ r: RouteDefinition }>,
  qWords: string[],
  mine: boolean,
): Promise<string | null> {
  const listing = routes
    .map(({ r }) => r)
    .find(
      (r) =>
        !r.pattern.includes("{") &&
        !r.submit &&
        r.startPoint &&
        words(r.title).some((w) => qWords.includes(w)),
    );
  if (!listing) return null;
  const own = new Set(words(`${listing.title} ${listing.pattern}`));
  const rest = qWords.filter((w) => !own.has(w));
  if (!rest.length) return null;
  const uri = mine && listing.example?.endsWith("?mine=1") ? listing.example : listing.pattern;
  const page = await navigate(backend, uri);
  if (page.outcome !== "applied") return null;
  const cells = new Set(
    page.markdown
      .split("\n")
      .filter((line) => line.startsWith("|"))
      .flatMap((line) => line.split("|").map((c) => c.trim().replaceAll("`", "").toLowerCase())),
  );
  return rest.some((w) => cells.has(w.toLowerCase())) ? uri : null;
}
