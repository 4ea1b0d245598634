import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import { routeTable } from "./browse-routes";

/** What one search may read, for its caller. */
export interface SearchableSystems {
  /** The connectors whose search the caller may make (the very array given when that is all). */
  among: readonly AnyConnector[];
  /** Whether a URI (or a route pattern) is in a scheme whose search the caller may make. */
  searchable(uri: string): boolean;
}

/** The scheme of a URI or a route pattern (`crm` of `crm://contact/{id}`). */
export const schemeOf = (uri: string): string => uri.split("://")[0] ?? "";

/**
 * The systems (and Signpost's own page schemes) a search reads: those whose own search,
 * `search:<scheme>`, no rule refuses the caller. A search across systems is authorized on `search:*`,
 * which no rule on one system names: without this, `deny search:crm` left that system's
 * pages, records and capabilities in every search over all systems. A system left out is not
 * asked, and nothing of it is shown or said, not even that it was left out.
 *
 * An `ask` rule leaves a system out too, and so does a one-time grant: that grant is for one
 * search of that system, which a search across systems is not (it would show the system again and
 * again without using the grant up). A system whose read roles leave the caller out by default
 * (an imported one) is not left out here: its pages are offered where the caller may navigate to
 * them (readableByCaller), as before. `authorized` is the scheme the search itself was authorized
 * for (`search(q, scheme)`): its grant was used by that very call, so it is not asked again. Each
 * question is a preview, answered from the rules the gateway keeps cached.
 */
export async function searchableSystems(
  backend: BrowseBackend,
  among: readonly AnyConnector[],
  authorized?: string,
): Promise<SearchableSystems> {
  const schemes = [...new Set(routeTable(among).map((r) => schemeOf(r.pattern)))].filter(
    (s) => s !== authorized,
  );
  const refused = new Set<string>();
  await Promise.all(
    schemes.map(async (scheme) => {
      const answer = await backend.authorize("search", `search:${scheme}`, { preview: true });
      const refusedByRule = answer.decision !== "allow" && answer.source !== "default";
      if (refusedByRule || answer.source === "grant") refused.add(scheme);
    }),
  );
  if (refused.size === 0) return { among, searchable: () => true };
  return {
    among: among.filter((c) => !refused.has(c.scheme)),
    searchable: (uri) => !refused.has(schemeOf(uri)),
  };
}
