import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { PageBody, RouteDefinition, RouteMatch } from "../connectors/sdk/define-route";
import { escapeText } from "../connectors/sdk/markdown";
import { leftOutByStatus } from "./left-out-by-status";
import { withoutOneFilter } from "./without-one-filter";

/** Filters that order rows rather than choose them: not said as filters. */
const ORDERING = /^(sort|order|order_by|sort_by)$/i;

/**
 * The one line every listing opens with when its address applied filters: "Filtered: status =
 * delivered, team_id = billing", then what a status filter leaves out where it was counted.
 * Each listing says it the same way, whichever connector draws it: a played model saw the line
 * on one listing and none on another filtered by a team, and could not tell it was filtered.
 * Only what the address applied is said: the system filtered, so the page knows no more.
 */
export async function filteredLine(
  route: RouteDefinition,
  match: RouteMatch,
  body: PageBody,
  backend: BrowseBackend,
): Promise<string | null> {
  if (body.outcome !== "applied") return null;
  const applied = Object.keys(route.filters ?? {})
    .filter((k) => !ORDERING.test(k) && match.uri.query[k] !== undefined && match.uri.query[k] !== "")
    .map((k) => {
      const said = `${escapeText(k)} = ${escapeText(saidWith(route, k, match.uri.query[k] ?? ""))}`;
      // What a text filter read, so its rows are known to be all that hold the words (set AO:
      // "which tickets mention a refund?" had the model list every ticket to learn it).
      const text = route.filters?.[k] === "free text" && route.textSearches;
      return text ? `${said} (searched: ${escapeText(route.textSearches ?? "")})` : said;
    });
  if (!applied.length) return null;
  const said = [
    await leftOutByStatus(route, match, body, backend),
    await withoutOneFilter(route, match, body, backend),
  ].filter(Boolean);
  return `Filtered: ${[applied.join(", "), ...said].join("; ")}.`;
}

/**
 * A declared value with the first of people's words for it that says more than the value
 * ("gloss (shiny coat)"): set K's model read a bare value on a filtered listing and did not take
 * it for what people call it. Other values as they are; a word naming several glosses none.
 */
function saidWith(route: RouteDefinition, key: string, value: string): string {
  const own = new Set(
    value
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean),
  );
  const words = route.valueWords?.[key] ?? {};
  const shared = (w: string) => Object.entries(words).some(([v, said]) => v !== value && said.includes(w));
  const theirs = (Object.hasOwn(words, value) ? words[value] : undefined)?.find(
    (w) =>
      !shared(w) &&
      !w
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .some((t) => own.has(t)),
  );
  return theirs ? `${value} (${theirs})` : value;
}

/**
 * A page's "Filtered:" line with the filters named in the words that set them ("team =
 * Billing", not only its id), or null where the page has none: search says the line once.
 */
export function withFilterWords(markdown: string, words: string[]): string | null {
  const line = /^Filtered: [^;\n]*?(;[^\n]*|\.)$/m;
  if (!words.length || !line.test(markdown)) return null;
  return markdown.replace(
    line,
    (_all, tail: string) => `Filtered: ${words.map(escapeText).join(", ")}${tail}`,
  );
}
