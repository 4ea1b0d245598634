import type { FilterChoice, RouteDefinition } from "../connectors/sdk/define-route";

/**
 * The lifecycle's states from the one named on, where the words say the record reached it rather
 * than that it stands there now:
 * - as where it went, its word followed by "to" or "into" ("shipped to my office"; set BQ kept
 *   `status = shipped`, one order in transit to another address, and the model listed every order
 *   again);
 * - as what someone did, after a person or an auxiliary ("orders I paid", "how many tickets has
 *   each team resolved": set BR counted the resolved tickets alone, the closed ones were resolved
 *   first);
 * - as what an amount was ("total shipping paid across all my orders": set BR kept the one order
 *   paid and not yet shipped).
 * Null where the state is not on the route's line, is its first or last, is named by people's words
 * for it ("in transit to my home" says where it is now), or a denial stands in the words (the state
 * after it may be the one denied in other words: review 61). A listing of several pages, or
 * without the state's column, says the values it could not keep to (left-out-rows.ts).
 */
export function reachedWhere(
  route: RouteDefinition,
  key: string,
  q: string,
  named: { choice: FilterChoice; words: string[] },
): string[] | null {
  const line = route.lifecycle?.key === key ? route.lifecycle.order : [];
  const at = line.indexOf(named.choice.value);
  const own = named.choice.label === named.choice.value;
  const word = named.words.length === 1 ? named.words[0] : undefined;
  if (at <= 0 || at >= line.length - 1 || !word || !own || NEGATION.test(q)) return null;
  const found = new RegExp(`\\b${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i").exec(q);
  if (!found) return null;
  const before = q.slice(0, found.index);
  const after = q.slice(found.index + found[0].length);
  const reached = /^\s+(?:to|into)\b/i.test(after) || BY_SOMEONE.test(before) || OF_AN_AMOUNT.test(before);
  return reached ? line.slice(at) : null;
}

/**
 * Words that deny, or that keep a record where it stands ("paid and awaiting shipment", "still
 * open"): where any is in the words, a state keeps its one value (review 61b).
 */
const NEGATION = /\b(?:not|never|no|without|except|yet|awaiting|waiting|still)\b|n['’]t\b/i;

/** A person, or an auxiliary and at most two words of who, right before: "I paid", "has each team resolved". */
const BY_SOMEONE =
  /(?:\b(?:i|we|you|they|he|she)(?:['’](?:ve|d))?|\b(?:have|has|had|did)(?:\s+\p{L}+){0,2})\s+(?:already\s+|just\s+|ever\s+)?$/iu;

/** A word of an amount right before: "shipping paid", "the total paid". General English, no field's name. */
const OF_AN_AMOUNT =
  /\b(?:total|amount|sum|price|cost|costs|fee|fees|charge|charges|money|tax|shipping|postage|delivery)\s+$/i;
