import { withoutDenied } from "../connectors/sdk/negated-words";
import type { CapabilityHit } from "./capability-search";
import { queryClauses } from "./query-clauses";
import { CLEAR_LEAD, OPENERS, settleNearTie } from "./top-match";

/**
 * Verbs that only set a value ("mark it as urgent", "set it to pending"): a clause they open asks
 * for the value after them, nothing else. Not "make" ("make sure nobody marks it …"), "turn"
 * ("turn it over to Sara") or "put" ("put it in Sara's queue"): each also opens another ask.
 */
const SETTING_VERBS = new Set(["mark", "set", "flag", "switch", "change", "update"]);

/** Words that make a lone clause no plain ask: nobody is to do it. */
const NOBODY = /\b(?:nobody|no one|noone|never)\b/;

/**
 * The words as the one clause that may set a fixed input value, or null: one clause (no
 * retraction, condition or second ask beside it: "… Actually, don't", "If Sid agrees, …") that
 * opens with a verb that only sets a value; setsInputValue then wants that value at its end,
 * right after "as", "to", "into" or "be" ("Mark the charged twice ticket as urgent."). Set AM: "mark … as urgent" tied
 * the priority change with resolving and the status change, which share "mark"; only the
 * priority takes "urgent". Reviews 54 and 54b found looser readings ran a change on "hand tkt_2
 * to Sara as urgent", "give Sara the ticket that's still open", "mark tkt_2 as urgent if Sid
 * agrees", "make sure nobody marks tkt_2 as urgent" and "mark tkt_3 as reviewed to open the
 * refund": each kept as a test.
 */
function settingClause(words: string): string | null {
  const lower = words.toLowerCase();
  if (NOBODY.test(lower)) return null;
  const clauses = queryClauses(withoutDenied(lower));
  const [only] = clauses;
  if (!only || clauses.length > 1 || only.role !== "request") return null;
  const first = (only.text.match(/\p{L}+/gu) ?? []).find((w) => !OPENERS.has(w));
  return first && SETTING_VERBS.has(first) ? only.text : null;
}

/** Whether the setting clause ends with one of the match's fixed values after "as/to/into/be". */
function setsInputValue(clause: string, hit: CapabilityHit): boolean {
  return Object.values(hit.input_values ?? {})
    .flat()
    .map((value) => value.toLowerCase().replace(/[_-]+/g, " ").trim())
    .filter((phrase) => /^[a-z0-9 ]{2,40}$/.test(phrase))
    .some((phrase) =>
      new RegExp(
        `\\b(?:as|to|into|be)\\s+(?:an?\\s+)?${phrase.replace(/ /g, "[\\s_-]+")}[\\s.!]*(?:please|asap|now|thanks|thank you)?[\\s.!]*$`,
      ).test(clause),
    );
}

/**
 * Among the matches near the best (within its clear lead), the only one whose fixed value the
 * words set (setsInputValue); undefined otherwise. Set AQ: "Mark the where are my headphones
 * ticket as high." led with resolving ("mark … resolved"), and only the priority takes "high".
 * Weighed after the record the words name: a record that refuses it ("put the closed invoice
 * ticket back to open": only a reopen takes it) keeps the tie that says so. The words are read
 * once, not once per match.
 */
export function settledBySetValue(words: string, hits: readonly CapabilityHit[]): CapabilityHit | undefined {
  const clause = settingClause(words);
  if (!clause) return undefined;
  const best = hits[0];
  const near = hits.filter(
    (h) => !h.off_topic && h.score > 0 && h.score >= (best?.score ?? 0) * (1 - CLEAR_LEAD),
  );
  const setting = near.filter((h) => setsInputValue(clause, h));
  return setting.length === 1 ? setting[0] : undefined;
}

/**
 * A near tie settled by the verb the words open with (settleNearTie), unless the value they set
 * is another match's alone: then neither settles it here, and the record the words name, then the
 * value, decide after (set BM: "Set the headphones ticket to urgent." started the status change by
 * "set", where only the priority takes "urgent", and the model cancelled it for the priority form).
 */
export function settledByVerb(
  words: string,
  hits: readonly CapabilityHit[],
  rivals: readonly CapabilityHit[],
): CapabilityHit | undefined {
  const byVerb = settleNearTie(words, hits);
  const byValue = byVerb ? settledBySetValue(words, rivals) : undefined;
  return byValue && byValue.capability !== byVerb?.capability ? undefined : byVerb;
}
