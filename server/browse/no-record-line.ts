import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { AnyConnector, RecordQuery } from "../connectors/sdk/define-connector";
import { code, link } from "../connectors/sdk/markdown";
import { routeVisibleTo } from "./browse-routes";
import type { MayNavigate } from "./navigable-routes";
import { navigate } from "./navigate";
import { recordsRead } from "./records-read";

/** At most this many searched listings are opened to say what was read (one call each). */
const MAX_TOLD = 3;

/**
 * "No record matches `login problem`, nor `login` or `problem` alone, in:" and a line per listing
 * the record search looked through (what it read, as recordsRead says it). A search whose
 * connectors say nothing of what they read keeps the older line: the listings (no parameters,
 * start points) of the systems whose records were searched, or other words.
 */
export async function noRecordLine(
  backend: BrowseBackend,
  shownQ: string,
  sources: readonly AnyConnector[],
  alone: string[] | null,
  query: RecordQuery,
  may: MayNavigate,
): Promise<string> {
  const none = `No record matches ${code(shownQ)}${alone ? `, nor ${alone.map(code).join(" or ")} alone` : ""}`;
  const read = await readListings(backend, sources, query, may);
  if (read.length) return `${none}, in:\n${read.map((line) => `- ${line}`).join("\n")}`;
  const listings = sources
    .flatMap((c) => c.routes.filter((r) => r.startPoint && !r.pattern.includes("{") && !r.submit).slice(0, 1))
    .filter((r) => routeVisibleTo(r, backend))
    .slice(0, 3)
    .map((r) => link(r.title, r.pattern));
  // One line, not the start list again: the listings themselves, or other words.
  const where = listings.length
    ? `look through ${listings.join(", ")} or try other words`
    : `try other words, or ${link("the start page", "signpost://start")} for every listing`;
  return `${none}; ${where}.`;
}

/**
 * The listings the sources' record searches looked through for this query, each opened as the
 * caller (navigate: their tenant, their route permissions, its own audit row) and said in one
 * line; a listing that does not open for them is left out, never counted.
 */
async function readListings(
  backend: BrowseBackend,
  sources: readonly AnyConnector[],
  query: RecordQuery,
  may: MayNavigate,
): Promise<string[]> {
  const listed = sources.flatMap((c) =>
    (c.searchedListings?.(query) ?? []).flatMap((uri) => {
      const route = c.routes.find((r) => r.pattern === uri.split("?")[0]);
      return route && uri.startsWith(`${c.scheme}://`) ? [{ uri, route }] : [];
    }),
  );
  const told = await Promise.all(
    listed
      .slice(0, MAX_TOLD)
      .map(async ({ uri, route }) => recordsRead(route, await navigate(backend, uri), uri, may)),
  );
  return told.filter((line): line is string => line !== null);
}
