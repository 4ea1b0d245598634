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
    const nouns = tokens.filter((t) => t.length >= 4 && own.some((w) => w.startsWith(t) || t.startsWith(w)));
    if (!nouns.length) continue;
    // The price end qualifies the field's noun ("shipping"), which no row's own words hold: each
    // row is read as holding the noun, and only it, so a row the part names ("express") still
    // stands out, and a price end on another noun ("the cheapest mug") names no row here.
    // "The cheapest way to ship", "the cheapest option": a noun for any choice is the field's too.
    const held = [...nouns, ...tokens.filter((t) => ANY_CHOICE.has(t))];
    const match = pricedInWords(
      rows.map((r) => ({ ...r, tokens: new Set([...r.tokens, ...held]) })),
      part,
      tokens,
    );
    if (match?.kind !== "one") continue;
    const choice = rows.find((r) => r.value === match.choice.value);
    return choice ? { choice, why: match.why } : undefined;
  }
  return undefined;
}

/** Nouns for any choice of a field ("the cheapest way", "the priciest option"). */
const ANY_CHOICE = new Set(["way", "option", "choice"]);
