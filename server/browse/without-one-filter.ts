import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { PageBody, RouteDefinition, RouteMatch } from "../connectors/sdk/define-route";
import { escapeText, shownPrefix } from "../connectors/sdk/markdown";
import { countSaid, EMPTY, inTurn, READING, STATUS_KEY, siblingCounter } from "./sibling-count";

/** At most this many filters are dropped in turn (counted two at a time): each is a call to the system. */
const DROPPED = 4;

/**
 * What an empty listing of several filters would hold with each one dropped in turn: "without
 * assignee_id = tm_sara: 1: tkt_1 Charged twice?; without team_id = billing: none". Set BU: "Give
 * Sara's open billing ticket to Sid" found none with all three, and both players listed Sara's
 * tickets and then the billing ones to learn which part of the request had no match (the wrapper's
 * model did the same). A state's filter is left to the status line; a count refused or failed is
 * not said. Null where the listing holds rows or fewer than two filters chose them.
 */
export async function withoutOneFilter(
  route: RouteDefinition,
  match: RouteMatch,
  body: PageBody,
  backend: BrowseBackend,
): Promise<string | null> {
  if (body.outcome !== "applied" || body.total !== 0) return null;
  const { page: _, cursor: __, ...query } = match.uri.query;
  const applied = Object.keys(route.filters ?? {}).filter(
    (k) => !READING.test(k) && query[k] !== undefined && query[k] !== "",
  );
  // Only where the "Filtered:" line names every filter the address sent: a count that kept one it
  // does not name (an imported listing's undeclared parameter) reads as every record's (review 62).
  const sent = Object.keys(query).filter((k) => !READING.test(k) && query[k] !== "");
  if (applied.length < 2 || sent.length !== applied.length) return null;
  // A state's filter is left to the status line (left-out-by-status.ts), beside it.
  const dropped = applied.filter((k) => !STATUS_KEY.test(k)).slice(0, DROPPED);
  const counter = siblingCounter(route, match, backend);
  const said = await inTurn(dropped, async (k) => {
    const { [k]: value, ...rest } = query;
    const counted = await counter(rest);
    if (counted === null || (counted !== EMPTY && counted.total === undefined)) return null;
    // The value as the address sent it, cut short: a long text filter is said once, above.
    const without = `without ${escapeText(k)} = ${escapeText(shownPrefix(String(value), 40))}`;
    return `${without}: ${counted === EMPTY ? "none" : countSaid(counted)}`;
  });
  const lines = said.filter((c): c is string => c !== null);
  return lines.length ? lines.join("; ") : null;
}
