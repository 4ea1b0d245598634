import type { FilterChoice, RouteDefinition } from "../connectors/sdk/define-route";

/**
 * The lifecycle's states from the one named on, where the words say it as where the record went
 * ("shipped to my office", "sent to Springfield"): its last word followed by "to" or "into". Null
 * where the state is not on the route's line, is its first or last, or is said otherwise. A
 * listing of several pages, or without the state's column, says the values it could not keep to
 * (left-out-rows.ts): one page cannot hold them. Set BQ:
 * "my orders shipped to office address" kept `status = shipped`, one order in transit to another
 * address, and the model listed every order again.
 */
export function reachedWhere(
  route: RouteDefinition,
  key: string,
  q: string,
  named: { choice: FilterChoice; words: string[] },
): string[] | null {
  const line = route.lifecycle?.key === key ? route.lifecycle.order : [];
  const at = line.indexOf(named.choice.value);
  const last = named.words.at(-1);
  // Only the state's own word: people's words for it say where it is now ("in transit to my
  // home", "on the way to") (review 61). Nor beside a denial ("shipped to me that never arrived"):
  // the state after it may be the one denied in other words.
  const own = named.choice.label === named.choice.value;
  if (at <= 0 || at >= line.length - 1 || !last || !own || NEGATION.test(q)) return null;
  const escaped = last.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`\\b${escaped}\\s+(?:to|into)\\b`, "i").test(q) ? line.slice(at) : null;
}

/** Words that deny: where any stands in the words, a state keeps its one value. */
const NEGATION = /\b(?:not|never|no|without|except|yet)\b|n['’]t\b/i;
