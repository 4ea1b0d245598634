/**
 * What the start took from the words, or by default, and why: kept on the answer of the change
 * it ran at once, which the agent had no step to read before (the confirm's answer has none).
 */
export function pickedBy(out: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    ["from_words", "why_picked", "defaulted", "other_matches", "picked_because", "instead_of"].flatMap((k) =>
      out[k] === undefined ? [] : [[k, out[k]]],
    ),
  );
}
