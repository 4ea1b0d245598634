/**
 * Whether an ask's words (without the text it carries) say "the <kind>" with nothing describing
 * which one ("set the ticket to pending", kind "ticket"): like "it", that is the record the
 * sentence is about. Issue 23: "Tell the customer on the late delivery ticket: '…' and set the
 * ticket to pending." read "the ticket" as naming no record, and offered a status change on none
 * where the started (closed) ticket could take none.
 *
 * Only where nothing can describe it: no word between "the" and the kind ("the blue ticket"),
 * the kind singular, and after it only the end of the ask or a word that starts what is done to
 * it ("to", "as", "and", "then"). Review 52: a list of words that describe ("about", "that", a
 * pronoun) always had gaps — "the ticket Bella has", "the ticket below", "the ticket mentioned
 * earlier" were pinned to the started record and changed at once.
 */
export function saysKindBare(head: string, kind: string | undefined): boolean {
  if (!kind) return false;
  const tokens = head.toLowerCase().match(/[\p{L}\p{N}_#]+|[,;]/gu) ?? [];
  return tokens.some((w, i) => w === "the" && tokens[i + 1] === kind && ends(tokens[i + 2]));
}

/** Words after "the <kind>" that say what is done to it, never which one it is. */
const DOING = new Set([",", ";", "to", "as", "and", "then", "too", "now", "please"]);

const ends = (next: string | undefined) => next === undefined || DOING.has(next);
