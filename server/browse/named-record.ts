import type { AnyConnector, ConnectorEntity } from "../connectors/sdk/define-connector";
import { ASKING, FRAMING, STOP, words } from "./route-words";

/** Around an id as a query may quote it: `ord_1`, "ord_1", (ord_1), ord_1? */
const QUOTES = /^[`'"(]+|[`'"),.;:?!]+$/g;

/**
 * The record pages a query names when it is one record id of a kind a connector declares
 * (`ord_transit`, "order ord_transit", "show me tkt_2"), best first (the longest declared prefix
 * the id starts with), as URIs to open; empty otherwise. Whether the record is there for the
 * caller is the page's answer (navigate's check), never guessed from the id's shape here.
 * Any other word (one that is not the kind's own, nor framing) makes it a search for words.
 */
export function namedRecord(among: readonly AnyConnector[], q: string, scheme?: string): string[] {
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
  if (!id || ids.length !== 1) return [];
  const matching = ofId(id).sort((a, b) => b.idPrefix.length - a.idPrefix.length);
  const rest = words(tokens.filter((t) => t !== id).join(" ")).filter(
    (w) => !STOP.has(w) && !FRAMING.has(w) && !ASKING.has(w),
  );
  const own = new Set(matching.flatMap((e) => words(`${e.label} ${e.name}`)));
  if (!rest.every((w) => own.has(w))) return [];
  return [...new Set(matching.map((e) => e.uri(id)))];
}
