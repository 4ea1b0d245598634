import { connectors } from "../connectors/connector-registry";
import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import { link } from "../connectors/sdk/markdown";
import { logger } from "../logger";
import type { RouteDefinition } from "./browse-routes";
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

export async function searchRecords(
  backend: BrowseBackend,
  q: string,
  qWords: string[],
  mine: boolean,
  sources: readonly AnyConnector[],
  among: readonly AnyConnector[],
  scheme?: string,
): Promise<string[]> {
  const out: string[] = [];
  const who = backend.who();
  if (!scheme || scheme === "signpost") {
    if (qWords.some((w) => who.tenantName.toLowerCase().includes(w) || who.tenantId === w)) {
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
      if (!connector.searchRecords) return [];
      try {
        return await connector.searchRecords(
          { query: q, words: qWords, mine },
          ownBackend(backend, sources, connector.scheme),
        );
      } catch (error) {
        // One connector failing leaves its records out; the search still answers.
        logger.warn({ connector: connector.id, err: backend.redact(String(error)) }, "record search failed");
        return [];
      }
    }),
  );
  out.push(...lists.flat());
  return [...new Set(out)].slice(0, 12);
}
