import type { AnyConnector, ConnectorEntity } from "../connectors/sdk/define-connector";
import { ASKING, FRAMING, STOP, words } from "./route-words";

/** Around an id as a query may quote it: `ord_1`, "ord_1", (ord_1), ord_1? */
const QUOTES = /^[`'"(]+|[`'"),.;:?!]+$/g;

/**
 * The one record id of a declared kind a query quotes (`ab_1`, "<records> about ab_1?"),
 * with the kinds it may be (the longest declared prefix first) and the query's other tokens; null
 * when it quotes none or several. The id's shape only: whether the record exists is not asked here.
 */
export function quotedId(
  among: readonly AnyConnector[],
  q: string,
  scheme?: string,
): { id: string; kinds: ConnectorEntity<unknown>[]; rest: string[] } | null {
  const tokens = q.split(/\s+/).map((t) => t.replace(QUOTES, ""));
  const kinds = among
    .filter((c) => !scheme || c.scheme === scheme)
    .flatMap((c) => c.entities as ConnectorEntity<unknown>[]);
  const ofId = (t: string) =>
    /^[A-Za-z0-9_-]+$/.test(t)
      ? kinds.filter((e) => t.startsWith(e.idPrefix) && t.length > e.idPrefix.length)
      : [];
  const ids = tokens.filter((t) => ofId(t).length > 0);
  const id = ids[0];
  if (!id || ids.length !== 1) return null;
  const matching = ofId(id).sort((a, b) => b.idPrefix.length - a.idPrefix.length);
  return { id, kinds: matching, rest: tokens.filter((t) => t !== id) };
}

/** The words that name a kind of record itself (its label and name), as `words()` reads them. */
export function kindWords(kinds: readonly ConnectorEntity<unknown>[]): Set<string> {
  return new Set(kinds.flatMap((e) => words(`${e.label} ${e.name}`)));
}

/**
 * The record pages a query names when it is one record id of a kind a connector declares
 * (`ord_transit`, "order ord_transit", "show me tkt_2"), best first (the longest declared prefix
 * the id starts with), as URIs to open; empty otherwise. Whether the record is there for the
 * caller is the page's answer (navigate's check), never guessed from the id's shape here.
 * Any other word (one that is not the kind's own, nor framing) makes it a search for words.
 */
export function namedRecord(among: readonly AnyConnector[], q: string, scheme?: string): string[] {
  const quoted = quotedId(among, q, scheme);
  if (!quoted) return [];
  const { id, kinds, rest: others } = quoted;
  const rest = words(others.join(" ")).filter((w) => !STOP.has(w) && !FRAMING.has(w) && !ASKING.has(w));
  const own = kindWords(kinds);
  if (!rest.every((w) => own.has(w))) return [];
  return [...new Set(kinds.map((e) => e.uri(id)))];
}
