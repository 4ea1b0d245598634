import { type QueryClause, queryClauses } from "../../engine/query-clauses";
import { repeatAsk, repeatedRecord } from "../../engine/repeated-ask";
import { asksOnlyToRead } from "../../engine/top-match";

/** One ask of the user's words: its clause, and its words as the user wrote them. */
export interface AskSpan {
  clause: QueryClause;
  /**
   * The ask's words as written, with the text it carries: the message it tells, text quoted for
   * it, or the detail after its colon ("resolve the headphones ticket: parcel found").
   */
  words: string;
  /** Where its clause stands in the lower-cased words (-1: not found), and where its words end. */
  at: number;
  end: number;
  /** Where its words begin and end in the words as written (-1: not found). */
  writtenAt: number;
  writtenEnd: number;
  /**
   * It says an ask before it again on another record ("…, and the tee ticket too"): its `words`
   * are that ask's, said on its record ("Assign the tee ticket to Sara"; repeated-ask.ts). `of`:
   * the index of the ask it repeats; `unclear`: its words pick no record ("the other one").
   */
  repeats?: { of: number; unclear: boolean };
  /**
   * The words before its colon that say which record it is about, as written ("Jo's billing
   * problem: set the case to pending"; colon-topic.ts): its record is theirs, not the sentence's.
   */
  topic?: string;
}

/**
 * The asks of the words, in order (clauses that ask, besides those that only read: "find …" sets
 * the scene), each with the words the user wrote for it. Lower-casing may change a text's length
 * ("İ" is two characters lower-cased), so offsets are mapped back to the words as written.
 */
export function askSpans(intent: string, kind?: string): { lower: string; asks: AskSpan[] } {
  const { lower, original } = lowerWithOffsets(intent);
  const clauses = queryClauses(lower);
  let from = 0;
  const asks: AskSpan[] = [];
  // The last ask said with a verb of its own: the one a clause that repeats an ask says again.
  let said: number | undefined;
  // The topic said right before the clause read now, as written.
  let topic: string | undefined;
  clauses.forEach((clause, i) => {
    const repeats = !!clause.repeats && said !== undefined;
    const about = topic;
    topic = undefined;
    if (clause.topic) {
      const t = lower.indexOf(clause.text, from);
      if (t >= 0) topic = intent.slice(original(t), original(t + clause.text.length));
      return;
    }
    if (!repeats && (clause.role !== "request" || asksOnlyToRead(clause.text) || onlyCourtesy(clause.text))) {
      // "…, find the tee ticket and the lamp one": what follows a reading says no change again.
      if (clause.role === "request" && !clause.repeats) said = undefined;
      return;
    }
    const joint = from;
    const at = lower.indexOf(clause.text, from);
    if (at < 0) {
      if (!repeats) said = asks.length;
      asks.push({
        clause,
        words: clause.text,
        at,
        end: -1,
        writtenAt: -1,
        writtenEnd: -1,
        ...(about ? { topic: about } : {}),
      });
      return;
    }
    from = at + clause.text.length;
    const clauseEnd = from;
    // The run of clauses it carries after it: each is its text, never an ask of its own.
    for (let j = i + 1; clauses[j]?.told || clauses[j]?.detail; j++) {
      const text = (clauses[j] as QueryClause).text;
      const end = lower.indexOf(text, from);
      if (end < 0) break;
      from = end + text.length;
    }
    const [writtenAt, writtenEnd] = [original(at), original(from)];
    const span = {
      clause,
      words: intent.slice(writtenAt, writtenEnd),
      at,
      end: from,
      writtenAt,
      writtenEnd,
      ...(about ? { topic: about } : {}),
    };
    if (!repeats) {
      said = asks.length;
      asks.push(span);
      return;
    }
    const written = {
      clause: intent.slice(writtenAt, original(clauseEnd)),
      carried: intent.slice(original(clauseEnd), writtenEnd),
      joint: intent.slice(original(joint), writtenAt),
    };
    asks.push({ ...span, ...repeatedWords(asks, said as number, written, kind) });
  });
  return { lower, asks };
}

/**
 * Words that ask nothing of a system: assent, politeness, and asking to be told ("go ahead and
 * …", "…, and let me know", "thanks"). A clause of these alone was said "not done (no capability
 * does it; tell the user)" beside the change it came with (set CW's review).
 */
const COURTESY = new Set(
  "go ahead please ok okay sure yes thanks thank you let me know now just kindly right away asap and then so do it that when done".split(
    " ",
  ),
);

/** Whether a clause holds only courtesy words (at least one). */
function onlyCourtesy(text: string): boolean {
  const words = text.match(/\p{L}+/gu) ?? [];
  return words.length > 0 && words.every((w) => COURTESY.has(w));
}

/**
 * The words of a clause that says ask `of` again on the record it names: that ask's words on its
 * record ("…, and the tee ticket too" → "Assign the tee ticket to Sara"), or the clause's own
 * where they cannot be put so (said as they are: never dropped). Where the ask ends at its record
 * ("Assign the headphones ticket and the tee ticket to Sara", "Resolve X and the charged twice
 * one: refund issued"), what follows the clause's record is said of both: the ask's words take it.
 */
function repeatedWords(
  asks: AskSpan[],
  of: number,
  written: { clause: string; carried: string; joint: string },
  kind: string | undefined,
): Pick<AskSpan, "words" | "repeats"> {
  const source = asks[of] as AskSpan;
  const record = repeatedRecord(written.clause, source.words, written.joint, kind);
  if (!record) return { words: written.clause.trim(), repeats: { of, unclear: true } };
  const repeats = { of, unclear: record.unclear };
  const tail = `${record.own ? ` ${record.own}` : ""}${written.carried}`;
  if (record.shared && tail.trim()) {
    source.words = `${source.words.trimEnd()}${tail}`;
    const words = repeatAsk(source.words, { ...record, own: "" }, kind);
    return { words: words ?? written.clause.trim(), repeats };
  }
  return { words: repeatAsk(source.words, record, kind) ?? written.clause.trim(), repeats };
}

/**
 * The text lower-cased, with the offset in the original text of each offset in the lower-cased
 * one: a character may lower-case to more than one ("İ" → "i̇"), so one index does not serve both.
 */
function lowerWithOffsets(text: string): { lower: string; original: (at: number) => number } {
  const starts: number[] = [];
  let lower = "";
  let offset = 0;
  for (const ch of text) {
    const low = ch.toLowerCase();
    for (let i = 0; i < low.length; i++) starts.push(offset);
    lower += low;
    offset += ch.length;
  }
  return { lower, original: (at) => (at >= starts.length ? text.length : (starts[at] as number)) };
}
