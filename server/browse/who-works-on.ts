/**
 * "who is working on them", "who's handling it", "who is dealing with these": a question about
 * who holds records the words already named, never text those records hold (set CK: "Which billing
 * tickets are there, and who is working on them?" searched the tickets' text for "working" and
 * found none). Only with a pronoun after it: "tickets about the app not working" keeps its words.
 */
const WHO_WORKS_ON =
  /\bwho(?:'s|\s+is|\s+are|\s+was|\s+were)?\s+(?:working\s+on|handling|dealing\s+with|looking\s+(?:after|into)|taking\s+care\s+of)\s+(?:it|them|these|those|this|that)\b/gi;

/** The words without such a question: its words name no page and filter nothing. */
export function withoutWhoWorksOn(q: string): string {
  return q.replace(WHO_WORKS_ON, " ");
}
