import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { PageBody, RouteDefinition, RouteMatch } from "../connectors/sdk/define-route";
import { escapeText } from "../connectors/sdk/markdown";
import { countSaid, EMPTY, inTurn, READING, STATUS_KEY, siblingCounter } from "./sibling-count";

/**
 * At most this many other statuses are counted, two at a time (inTurn): an imported enum can declare
 * hundreds, and each count is a call to the system on one navigate. Past it the statuses are
 * only named (the first few), with how many more there are.
 */
const COUNTED = 6;
const NAMED = 10;

/**
 * What a listing filtered by one status leaves out, for its "Filtered:" line: every other
 * status it declares, with how many records are in it ("not included: pending (2), resolved (2),
 * closed (2)"), or null where nothing true can be said. Round 5's model asked for open tickets and could not
 * tell whether tickets waiting on someone (pending) were among them; it listed every ticket to
 * decide. A status is a literal value, and what a person counts as "open" may span several.
 *
 * Each other status is counted by the same route with that value and one row a page, each asked
 * the caller's permission like a navigate to it (a status the caller may not list is not named;
 * a status holding one record names it by id and title);
 * a count the system does not give is left out, the status still named. "No record has another
 * status" only when every other one was counted empty: a count refused or failed proves nothing
 * (a played model was told so of orders whose other statuses it had simply not counted).
 */
export async function leftOutByStatus(
  route: RouteDefinition,
  match: RouteMatch,
  body: PageBody,
  backend: BrowseBackend,
): Promise<string | null> {
  // Said once, on the first page: a reader paging on through it already knows.
  const { page: at, cursor } = match.uri.query;
  if (body.outcome !== "applied" || cursor || (at !== undefined && at !== "1")) return null;
  const [key, values] =
    Object.entries(route.filters ?? {}).find(
      ([k, v]) => STATUS_KEY.test(k) && v !== "free text" && match.uri.query[k] !== undefined,
    ) ?? [];
  const chosen = key ? match.uri.query[key] : undefined;
  if (!key || !Array.isArray(values) || !chosen || !values.includes(chosen)) return null;
  const others = values.filter((v) => v !== chosen);
  if (others.length > COUNTED) {
    const more = others.length - NAMED;
    const shown = others.slice(0, NAMED).map(escapeText).join(", ");
    return `other values: ${shown}${more > 0 ? ` and ${more} more` : ""}`;
  }
  const counter = siblingCounter(route, match, backend);
  const { page: _, ...query } = match.uri.query;
  const count = async (value: string): Promise<string | typeof EMPTY | null> => {
    const counted = await counter({ ...query, [key]: value });
    if (counted === EMPTY || counted === null) return counted;
    return counted.total === undefined
      ? escapeText(value)
      : `${escapeText(value)} (${countSaid(counted, value)})`;
  };
  const counted = await inTurn(others, count);
  const named = counted.filter((c): c is string => typeof c === "string");
  if (named.length) return `not included: ${named.join(", ")}`;
  if (!counted.every((c) => c === EMPTY)) return null;
  // The counts kept the listing's other filters: said, so it is not read as every record's state
  // (set BJ: "status = open, assignee_id = none; no record has another status" of tickets that do).
  const kept = Object.keys(route.filters ?? {})
    .filter((k) => k !== key && !READING.test(k) && match.uri.query[k] !== undefined)
    .map((k) => `${escapeText(k)} = ${escapeText(String(match.uri.query[k]))}`);
  return `no record${kept.length ? ` with ${kept.join(", ")}` : ""} has another ${escapeText(key)}`;
}
