import { verbOfPast } from "../connectors/sdk/record-events";

/**
 * A clause that opens with an irregular past and a word of how ("…, paid by card", "…, paid from
 * my balance") says how the ask before it is done. Only at a clause's start: "I already paid by
 * card", "the lamp I paid by card" tell of a payment made before (review 60).
 */
const OPENING_PAST =
  /(^|[,;:.!?]\s*|\b(?:and|then)\s+)(\p{L}+)(?=\s+(?:by|with|via|using|through|from|out\s+of|on)\b)/giu;

/** Words of a past told ("last time", "already"): the clause says what was, not how to do it now. */
const TOLD_PAST = /\b(?:already|last|before|previously|earlier|ago|usually|always|once)\b/i;

function rewritten(text: string, as: (verb: string) => string, atStart = true): string {
  if (TOLD_PAST.test(text)) return text;
  return text.replace(OPENING_PAST, (whole, before: string, word: string, at: number) => {
    const verb = verbOfPast(word.toLowerCase());
    return verb && (atStart || at > 0) ? `${before}${as(verb)}` : whole;
  });
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
