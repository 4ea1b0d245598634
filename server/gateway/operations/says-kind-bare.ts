/**
 * Whether an ask's words (without the text it carries) say "the <kind>" with nothing describing
 * which one ("set the ticket to pending", kind "ticket"): like "it", that is the record the
 * sentence is about. Issue 23: "Tell the customer on the late delivery ticket: '…' and set the
 * ticket to pending." read "the ticket" as naming no record, and offered a status change on none
 * where the started (closed) ticket could take none. Not where a word stands between "the" and the
 * kind ("the blue ticket", "the other ticket"), the kind is plural ("the tickets"), or the word
 * after it opens a description of which record ("the ticket about the lamp order", "the ticket
 * tkt_5", "the ticket I opened"): those name a record of their own, read as before.
 */
export function saysKindBare(head: string, kind: string | undefined): boolean {
  if (!kind) return false;
  const tokens = head.toLowerCase().match(/[\p{L}\p{N}_#]+/gu) ?? [];
  return tokens.some((w, i) => w === "the" && tokens[i + 1] === kind && !describes(tokens[i + 2]));
}

/** Whether the word after "the <kind>" begins a description of which record: a preposition, a relative, an id. */
function describes(next: string | undefined): boolean {
  return next !== undefined && (DESCRIBING.has(next) || /[\p{N}_#]/u.test(next));
}

/**
 * Words that, right after "the <kind>", open a description of which record is meant: a
 * preposition ("about", "for", "from"), a relative ("that", "which", "whose"), a participle
 * ("called", "raised"), a name for its id ("number"), or a contact clause's subject ("the
 * ticket I opened").
 */
const DESCRIBING = new Set(
  (
    "about for from of with on in at regarding concerning re " +
    "that which who whose where when " +
    "called named titled entitled labelled labeled mentioning raised opened filed logged created " +
    "submitted sent made assigned by " +
    "number no id " +
    "i we you they he she"
  ).split(" "),
);
