/** How many records beside the one sent an answer lists: enough to ask the user by, not the whole list. */
const OTHERS_SHOWN = 3;

/** An answer's ask_user as a face reads it: the record sent, the lines of the records it lists. */
interface AskLike {
  record?: unknown;
  candidates?: unknown;
  others?: unknown;
}

/**
 * The candidate lines a face shows of an ask_user: the record sent and the first few others (in
 * the node's own order), and how many others it leaves out, listed in the answer's data or not.
 * Played (a comment sent without the user's words): nine rows, one per record, were ~400 of the
 * answer's 662 tokens, where the one question to ask the user is about the record sent.
 */
export function shownCandidates(ask: AskLike | undefined): { lines: string[]; more: number; listed: number } {
  const all = Array.isArray(ask?.candidates) ? ask.candidates.map(String) : [];
  const id = (line: string) => line.split(" ")[0];
  const sent = all.find((line) => id(line) === ask?.record);
  const kept = all.filter((line) => line !== sent).slice(0, OTHERS_SHOWN);
  const lines = all.filter((line) => line === sent || kept.includes(line));
  const others = typeof ask?.others === "number" ? ask.others : all.length - (sent ? 1 : 0);
  return { lines, more: Math.max(0, others - kept.length), listed: all.length - lines.length };
}
