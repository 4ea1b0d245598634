/** The fields of an answer its first word is read from. */
export interface HeadlineFacts {
  outcome?: unknown;
  status?: unknown;
  effect?: unknown;
  result?: unknown;
  requires_confirmation?: unknown;
}

/**
 * An answer's first word, on every face: the typed outcome, except where "applied" (the call did
 * what was asked) would read as "the change happened" while nothing was executed yet — a model
 * relays it to the user. Set AV: a browse submit left with an admin said "**applied:** Move
 * ticket to team is ready; an admin must approve it", where the action face said
 * `awaiting_approval`.
 */
export function outcomeHeadline(result: HeadlineFacts): string {
  const outcome = String(result.outcome ?? "");
  if (outcome !== "applied" || result.effect || (result.result !== undefined && result.result !== null))
    return outcome;
  if (result.status === "awaiting_approval") return "awaiting_approval";
  if (result.status === "rejected") return "rejected";
  // An action refused at its start, read again: it is over, whatever the read itself did.
  if (result.status === "refused") return "refused";
  // Round 25: "ready: After-sales request cancelled" read as still live.
  if (result.status === "cancelled") return "cancelled";
  if (result.requires_confirmation === true) return "ready";
  return outcome;
}
