import type { FilterChoice, RouteDefinition } from "../connectors/sdk/define-route";

/**
 * The lifecycle's states from the one named on, where the words say it as where the record went
 * ("shipped to my office", "sent to Springfield"): its last word followed by "to" or "into". Null
 * where the state is not on the route's line, is its first or last, or is said otherwise. Set BQ:
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
  if (at <= 0 || at >= line.length - 1 || !last) return null;
  const escaped = last.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`\\b${escaped}\\s+(?:to|into)\\b`, "i").test(q) ? line.slice(at) : null;
}
