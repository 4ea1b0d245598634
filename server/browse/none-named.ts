import type { FilterChoice, RouteDefinition } from "../connectors/sdk/define-route";
import { filterName, tokens } from "./filter-tokens";

/** Where "no <filter>" was said, and its words. */
export interface NoneSaid {
  at: number;
  end: number;
  words: string[];
}

/** Words after "no owner" that keep it a phrase of its own: the end, or what joins another. */
const AFTER =
  "(?=\\s*$|\\s*[,.;:?!)]|\\s+(?:and|or|in|on|for|from|at|of|yet|now|but|please|first|with|whose|that|which|sorted|oldest|newest)\\b)";

/** A negation right before "no …"/"without …" turns it around ("not without an owner"). */
const NEGATED_BEFORE = /\b(?:not|never|isn't|aren't|wasn't|weren't|don't|doesn't)\s*$/i;

/**
 * Where the words ask for the rows a choice filter holds nothing for ("tickets with no owner",
 * "without an owner in billing"): "no" or "without (a|an|any)" right before the filter's own
 * name, as a phrase of its own. Plain English, no connector's words. Set AZ: "tickets with no
 * <its owner filter>" opened a people page, then every ticket (the negation denied the filter's name).
 * Review 57: never where the name goes on as a clause's subject ("no owner has replied"), a
 * word about the listing ("no owner filter"), or a negation turns it round.
 */
export function noneSaid(q: string, key: string): NoneSaid | null {
  const name = filterName(key).trim().split(/\s+/).map(literal).join("\\s+");
  if (!name) return null;
  const phrase = new RegExp(`(?<![\\w'])(?:no|without(?:\\s+(?:a|an|any))?)\\s+${name}s?${AFTER}`, "gi");
  for (const m of q.matchAll(phrase)) {
    if (NEGATED_BEFORE.test(q.slice(0, m.index))) continue;
    return { at: m.index, end: m.index + m[0].length, words: tokens(m[0]) };
  }
  return null;
}

/** The words with each "no …" phrase blanked: its "no" sets nothing after it apart. */
export function withoutNoneSaid(q: string, said: readonly NoneSaid[]): string {
  let out = q;
  for (const s of said) out = `${out.slice(0, s.at)}${" ".repeat(s.end - s.at)}${out.slice(s.end)}`;
  return out;
}

/** The filter's "none" choice, where one is offered, named by the phrase's words. */
export async function noneChoice(
  said: NoneSaid,
  read: () => Promise<readonly FilterChoice[] | null>,
): Promise<{ choice: FilterChoice; words: string[] } | null> {
  const choice = ((await read()) ?? []).find((c) => c.value === "none");
  return choice ? { choice, words: said.words } : null;
}

function literal(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The words with every "no <filter>" phrase of the routes' choice filters blanked: what rows lack
 * names no page ("tickets with no owner" is no people's page).
 */
export function withoutNonePhrases(q: string, routes: readonly RouteDefinition[]): string {
  const keys = new Set(
    routes.flatMap((r) =>
      Object.entries(r.filters ?? {}).flatMap(([key, spec]) =>
        typeof spec === "object" && "choices" in spec ? [key] : [],
      ),
    ),
  );
  return withoutNoneSaid(
    q,
    [...keys].flatMap((k) => noneSaid(q, k) ?? []),
  );
}
