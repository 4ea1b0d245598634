import { verbOfPast } from "../connectors/sdk/record-events";

/**
 * A clause that opens with an irregular past and a word of how ("…, paid by card", "…, paid from
 * my balance") says how the ask before it is done: only after a comma, a semicolon, "and" or
 * "then", and only where at most three words follow the word of how before the clause ends.
 * "I already paid by card", "the lamp I paid by card", "Buy a lamp. Paid by card on my previous
 * order." tell of a payment made before (reviews 60, 60c).
 */
const OPENING_PAST =
  /(^|[,;:]\s*|\b(?:and|then)\s+)(\p{L}+)(\s+(?:by|with|via|using|through|from|out\s+of)((?:\s+[\p{L}\p{N}'’]+){1,3}))(?=\s*(?:[,;.!?]|$))/giu;

/** Words of a past told ("last time", "yesterday"): the clause says what was, not how to do it now. */
const TOLD_PAST =
  /\b(?:already|last|before|previous|previously|earlier|ago|usually|always|once|yesterday|time)\b/i;

function rewritten(text: string, put: (verb: string) => string, atStart = true): string {
  return text.replace(
    OPENING_PAST,
    (whole, before: string, word: string, how: string, after: string, at: number) => {
      const verb = verbOfPast(word.toLowerCase());
      if (!verb || TOLD_PAST.test(after) || (!atStart && at === 0)) return whole;
      return `${before}${put(verb)}${how}`;
    },
  );
}

/**
 * The text with each clause-opening irregular past of how as its verb ("paid by" → "pay by"), for
 * a later step's choices (later-choices.ts): "…, paid from my balance" chooses the balance.
 */
export function howPastAsVerb(text: string): string {
  return rewritten(text, (verb) => verb);
}

/**
 * The text without a clause-opening irregular past of how ("…, paid by card" → "…, by card"), for
 * the capability search: it says how the ask before is done, never which capability is asked for.
 * `atStart`: also where the text opens with it (a clause after the request's first).
 */
export function withoutHowPast(text: string, atStart: boolean): string {
  return rewritten(text, () => "", atStart);
}
