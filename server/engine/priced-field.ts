import { type ChoiceRow, requestParts, wordTokens } from "./choice-words";
import { pricedInWords } from "./price-words";

/**
 * The choice of a one-value field that the request names by its price ("the cheapest shipping",
 * "ship it the cheapest way", "the priciest plan"): in the part of the request that speaks of the
 * field (a word of its name: delivery_mode → "delivery", or "deliver"), the row at that price end
 * among those that can be taken, with why. Played (set J): "Buy one Desk Lamp, the cheapest
 * shipping to my office" asked the user to choose a shipping method the words had chosen. A tie,
 * a price the words turn down, or rows without prices name nothing: the field is asked as before.
 */
export function pricedFieldInWords(
  field: string,
  rows: ChoiceRow[],
  request: string,
): { choice: ChoiceRow; why: string } | undefined {
  const own = field.split("_").filter((w) => w.length >= 4);
  if (!own.length || !rows.length) return undefined;
  for (const part of requestParts(request)) {
    const tokens = wordTokens(part);
    // "deliver" speaks of delivery_mode as "delivery" does: either starts the other.
    const aboutField = tokens.some(
      (t) => t.length >= 4 && own.some((w) => w.startsWith(t) || t.startsWith(w)),
    );
    if (!aboutField) continue;
    // The part's words are the field's here: the price end qualifies its noun ("shipping"), which
    // no row's own words hold, so each row is read as holding them.
    const said = new Set(tokens);
    const match = pricedInWords(
      rows.map((r) => ({ ...r, tokens: new Set([...r.tokens, ...said]) })),
      part,
      tokens,
    );
    if (match?.kind !== "one") continue;
    const choice = rows.find((r) => r.value === match.choice.value);
    return choice ? { choice, why: match.why } : undefined;
  }
  return undefined;
}
