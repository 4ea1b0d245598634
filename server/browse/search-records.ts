import { connectors } from "../connectors/connector-registry";
import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { AnyConnector, RecordQuery } from "../connectors/sdk/define-connector";
import { link } from "../connectors/sdk/markdown";
import { withPageScope } from "../connectors/sdk/page-scope";
import { textHoldsWord } from "../connectors/sdk/words-search";
import { logger } from "../logger";
import type { RouteDefinition } from "./browse-routes";
import type { MayNavigate } from "./navigable-routes";
import { ownBackend } from "./own-backend";

/** At most this many connectors are asked for records per search (each may call its system). */
const MAX_RECORD_SOURCES = 8;

/**
 * The connectors a search asks for records (each may call its system), at most
 * MAX_RECORD_SOURCES: the one the query's scheme names; else those whose pages matched, best
 * first, then those whose id prefix the query starts with, then the process's installed ones
 * while slots remain (an imported system is asked only when the query is about it).
 */
export function recordSources(
  among: readonly AnyConnector[],
  pages: RouteDefinition[],
  q: string,
  scheme?: string,
): AnyConnector[] {
  if (scheme) return among.filter((c) => c.scheme === scheme);
  const asks = (c: AnyConnector) => Boolean(c.searchRecords) || c.entities.length > 0;
  const byScheme = new Map(among.map((c) => [c.scheme, c]));
  const ranked = [
    ...pages.map((r) => byScheme.get(r.pattern.split("://")[0] ?? "")),
    ...among.filter((c) => c.entities.some((e) => q.trim().startsWith(e.idPrefix))),
    ...connectors(),
  ].filter((c): c is AnyConnector => c !== undefined && among.includes(c) && asks(c));
  return [...new Set(ranked)].slice(0, MAX_RECORD_SOURCES);
}

/** Words that make a query about settings (stemmed as `words()` does). */
const CONFIG_WORDS = new Set(["config", "setting", "secret", "key", "credential", "connection"]);

/** One record line a search may print, with the links it makes (recorded only if it is shown). */
export interface RecordHit {
  line: string;
  links: string[];
  /** The listings its connector's record search read for it (none for the browse layer's own lines). */
  listings: string[];
}

/**
 * Records matching the query, at most 12, each shown only where the caller may navigate to every
 * page it links to and to every listing its connector's record search read for it (the hits
 * are that listing's rows, whatever page they link to). A hidden hit leaves nothing: its line
 * and its links are dropped before anything is recorded on the page, and nothing counts it.
 */
export async function searchRecords(
  backend: BrowseBackend,
  q: string,
  qWords: string[],
  mine: boolean,
  sources: readonly AnyConnector[],
  among: readonly AnyConnector[],
  may: MayNavigate,
  scheme?: string,
): Promise<RecordHit[]> {
  // In a scope of their own: a connector's link() would otherwise record a hidden hit's link
  // on the search page (its structured links) before the hit is dropped.
  const { value: groups, links } = await withPageScope(backend.redact, () =>
    recordLines(backend, { query: q, words: qWords, mine }, sources, among, scheme),
  );
  const every = async (uris: readonly string[]) => (await Promise.all(uris.map(may))).every(Boolean);
  const shown = await Promise.all(
    groups.map(async ({ lines, listings }) => {
      if (!(await every(listings))) return [];
      const hits = lines.map((line) => ({
        line,
        links: links.filter((l) => line.includes(`](${l})`)),
        listings,
      }));
      // Every address the line links to, made with link() or not: a page it names is a page it shows.
      const allowed = await Promise.all(
        hits.map((hit) => every([...new Set([...hit.links, ...linkedIn(hit.line)])])),
      );
      return hits.filter((_, i) => allowed[i]);
    }),
  );
  const seen = new Set<string>();
  return shown
    .flat()
    .filter((hit) => !seen.has(hit.line) && seen.add(hit.line))
    .slice(0, 12);
}

/** The addresses a markdown line links to (`[label](scheme://…)`). */
function linkedIn(line: string): string[] {
  return [...line.matchAll(/\]\(([a-z][a-z0-9+.-]*:\/\/[^)\s]*)\)/g)].map((m) => m[1] as string);
}

/** The record lines of each source (with the listings its search read), and the browse layer's own. */
async function recordLines(
  backend: BrowseBackend,
  query: RecordQuery,
  sources: readonly AnyConnector[],
  among: readonly AnyConnector[],
  scheme?: string,
): Promise<Array<{ lines: string[]; listings: string[] }>> {
  const { words: qWords } = query;
  const out: string[] = [];
  const who = backend.who();
  if (!scheme || scheme === "signpost") {
    // By whole words: a one-letter word ("M", a size) is inside most organisations' names.
    if (qWords.some((w) => textHoldsWord(who.tenantName, w) || who.tenantId === w)) {
      out.push(`- ${link(`${who.tenantName} (your organisation)`, "signpost://start")}`);
    }
  }
  // An admin asking about a system's settings ("shop api key") gets its settings page.
  if (who.role === "admin" && (!scheme || scheme === "config") && qWords.some((w) => CONFIG_WORDS.has(w))) {
    for (const c of among
      .filter((c) => qWords.includes(c.id) || qWords.includes(c.title.toLowerCase()))
      .slice(0, 3))
      out.push(`- ${link(`${c.title} settings`, `config://${c.id}`)}`);
  }
  const lists = await Promise.all(
    sources.map(async (connector) => {
      if (!connector.searchRecords) return { lines: [], listings: [] };
      try {
        const lines = await connector.searchRecords(query, ownBackend(backend, sources, connector.scheme));
        return { lines, listings: connector.searchedListings?.(query) ?? [] };
      } catch (error) {
        // One connector failing leaves its records out; the search still answers.
        logger.warn({ connector: connector.id, err: backend.redact(String(error)) }, "record search failed");
        return { lines: [], listings: [] };
      }
    }),
  );
  return [{ lines: out, listings: [] }, ...lists];
}
