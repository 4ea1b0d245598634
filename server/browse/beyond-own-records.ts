import type { AnyConnector } from "../connectors/sdk/define-connector";
import type { RecordHit } from "./search-records";

/** Said after a record line found beyond the caller's own, where "my" read them as theirs. */
export const NOT_YOURS_MARK = " (not yours)";

/**
 * Where "my" scoped a listing to the caller's own records (`?mine=1`) and none of theirs holds the
 * words, the records of every one they may read, each line marked: "my" may be the record's own
 * words (set BY: "where are my headphones", a ticket's subject, opened a product as "the one
 * record holding every word", and with the helpdesk named said none matched among the one ticket
 * assigned to the caller). Searched again only where a source listing takes `?mine=1`.
 */
export async function beyondOwnRecords(
  found: RecordHit[],
  mine: boolean,
  sources: readonly AnyConnector[],
  searchEvery: () => Promise<RecordHit[]>,
): Promise<{ found: RecordHit[]; others: Set<string> }> {
  const scoped = sources.some((c) => c.routes.some((r) => r.example?.endsWith("?mine=1")));
  const ownHit = found.some((h) => h.listings.some((l) => l.endsWith("?mine=1")));
  if (!mine || !scoped || ownHit) return { found, others: new Set() };
  const shown = new Set(found.map((h) => h.line));
  const more = (await searchEvery()).filter((h) => !shown.has(h.line));
  return { found: [...found, ...more].slice(0, 12), others: new Set(more.map((h) => h.line)) };
}
