import { withoutDenied } from "../connectors/sdk/negated-words";
import type { CapabilityHit } from "./capability-search";
import { queryClauses } from "./query-clauses";
import { CLEAR_LEAD, OPENERS } from "./top-match";

/**
 * Verbs that only set a value ("mark it as urgent", "set it to pending", "make it high"): a clause
 * they open asks for the value after them, nothing else.
 */
const SETTING_VERBS = new Set(["mark", "set", "make", "flag", "switch", "turn", "change", "update", "put"]);

/**
 * The words set one of the match's fixed input values: a clause that asks opens with a verb that
 * only sets a value, and the value stands right after "as", "to", "into" or "be" in it ("Mark
 * the charged twice ticket as urgent", "set it to pending"). Set AM: "mark … as urgent" tied the
 * priority change with resolving and the status change, which share "mark"; only the priority
 * takes "urgent". A review found the first reading ran a priority change on "hand tkt_2 to Sara
 * as urgent" (the ask is the assignment) and a status change on "give Sara the ticket that's
 * still open": a value that describes the record, says how ("pay for it by card"), rides on
 * another verb's ask, sits in a question, or that the words deny sets nothing.
 */
function setsInputValue(words: string, hit: CapabilityHit): boolean {
  const values = Object.values(hit.input_values ?? {})
    .flat()
    .map((value) => value.toLowerCase().replace(/[_-]+/g, " ").trim())
    .filter((phrase) => /^[a-z0-9 ]{2,40}$/.test(phrase));
  if (!values.length) return false;
  const asks = queryClauses(withoutDenied(words.toLowerCase())).filter((c) => c.role === "request");
  return asks.some((c) => {
    const first = (c.text.match(/\p{L}+/gu) ?? []).find((w) => !OPENERS.has(w));
    if (!first || !SETTING_VERBS.has(first)) return false;
    return values.some((phrase) =>
      new RegExp(`\\b(?:as|to|into|be)\\s+(?:an?\\s+)?${phrase.replace(/ /g, "[\\s_-]+")}\\b`).test(c.text),
    );
  });
}

/**
 * The best match, where among those near it (within its clear lead) it is the only one whose
 * fixed value the words set (setsInputValue); undefined otherwise: a weaker match is never
 * started for them. Weighed after the record the words name: a record
 * that refuses it ("put the closed invoice ticket back to open": only a reopen takes it) keeps
 * the tie that says so.
 */
export function settledBySetValue(words: string, hits: readonly CapabilityHit[]): CapabilityHit | undefined {
  const best = hits[0];
  const near = hits.filter(
    (h) => !h.off_topic && h.score > 0 && h.score >= (best?.score ?? 0) * (1 - CLEAR_LEAD),
  );
  const setting = near.filter((h) => setsInputValue(words, h));
  return setting.length === 1 && setting[0] === best ? best : undefined;
}
