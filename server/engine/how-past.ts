import { verbOfPast } from "../connectors/sdk/record-events";

/**
 * A clause that opens with an irregular past and a word of how or where ("…, paid by card",
 * "…, paid from my balance") says how the ask before it is done: its verb, in the base form.
 * Only at a clause's start: "I already paid by card", "the lamp I paid by card" tell of a
 * payment made before and choose nothing now (review 60).
 */
const OPENING_PAST =
  /(^|[,;:.!?]\s*|\b(?:and|then)\s+)(\p{L}+)(?=\s+(?:by|with|via|using|through|from|out\s+of)\b)/giu;

/** The text with each clause-opening irregular past of how as its verb ("paid by" → "pay by"). */
export function howPastAsVerb(text: string): string {
  return text.replace(OPENING_PAST, (whole, before: string, word: string) => {
    const verb = verbOfPast(word.toLowerCase());
    return verb ? `${before}${verb}` : whole;
  });
}
