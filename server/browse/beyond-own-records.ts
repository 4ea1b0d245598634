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
): Promise<{ found: RecordHit[]; others: Set<string>; widened: boolean }> {
  const scoped = sources.some((c) => c.routes.some((r) => r.example && MINE.test(r.example)));
  // A listing read as the caller's own holds `mine=1` among its parameters, wherever it stands.
  const ownHit = found.some((h) => h.listings.some((l) => MINE.test(l)));
  if (!mine || !scoped || ownHit) return { found, others: new Set(), widened: false };
  const shown = new Set(found.map((h) => h.line));
  const more = (await searchEvery()).filter((h) => !shown.has(h.line));
  return { found: [...found, ...more].slice(0, 12), others: new Set(more.map((h) => h.line)), widened: true };
}

const MINE = /[?&]mine=1(?:&|$)/;

/** Words that say the records are the caller's own ("my", "mine"); "me" asks for something, names no owner. */
export const OWN_WORDS = /\b(my|mine)\b/i;
