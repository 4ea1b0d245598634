import type { NextAction } from "../../connectors/sdk/outcome";
import type { CapabilityHit } from "../../engine/capability-search";
import { CLEAR_LEAD, topMatch } from "../../engine/top-match";
import type { TrustedContext } from "../trusted-context";

/** What the caller may start on the record given or quoted now (possible-on-record.ts). */
export type PossibleOn = (
  ctx: TrustedContext,
  named: {
    entityId?: string;
    words?: string;
    only?: readonly string[];
    describedFor?: readonly string[];
    /** Then through every other capability about the same kind of record. */
    kin?: boolean;
  },
) => Promise<{ id: string; next: NextAction[]; weighed: string[] } | null>;

export interface PickedBeyondWords {
  hit: CapabilityHit;
  /** Said on the answer: why this one, and which match the words alone preferred. */
  because: string;
  /** Started only for its answer (its refusal, expected): never run at once, even if it could. */
  checkOnly?: true;
}

/** A tie the record does not settle (it refuses the best): the matches it can take now, and not. */
export interface TieOnRecord {
  id: string;
  can: string[];
  cannot: string[];
}

/**
 * A near tie of the words that the record the start names settles (entity_id, the one id the
 * words quote, or the one record the words describe among the best's own choices, else a near
 * match's): the matches near the best whose start that record refuses now drop out, and the best
 * is judged again against the rest. Issue 23 (played): a change that a record could take tied
 * with one it could not, and was answered "several capabilities match"; set N's "Put the kettle
 * refund ticket back to open" named its (pending) ticket by words only, which a reopen cannot take.
 * - Only in favour of the best match, as the verb and the fields settle ties (top-match.ts): the
 *   best is never dropped, so a weaker match is never started for words that meant another; a
 *   best the record refuses too starts as it would if clear, and its refusal says why.
 * - Bounded: only the near-tied matches are weighed (one evaluation each, the check a start
 *   makes; a record described by words costs one more per match read until one names it). A match of no kind or another kind is not weighed and stays in the tie; a record of
 *   no known kind settles nothing.
 * - The best refused too: the tie stands (words that meant the best never start another: "ship
 *   it home instead" is no return of a delivered order), but the answer says which matches the
 *   record can take now (TieOnRecord), so the next call is the right one ("put the closed
 *   invoice ticket back to open": a reopen), or the user is told the change meant is not possible.
 * Undefined: the tie stands (the best must take every field sent and lead clearly).
 */
export async function pickByRecord(
  possibleOn: PossibleOn,
  ctx: TrustedContext,
  named: { entityId?: string; words?: string },
  hits: readonly CapabilityHit[],
  fields: readonly string[],
): Promise<PickedBeyondWords | TieOnRecord | undefined> {
  const [best] = hits;
  if (!best || best.off_topic || !fields.every((f) => best.inputs.includes(f))) return undefined;
  const near = hits.filter(
    (h) => h !== best && !h.off_topic && h.score > 0 && h.score >= best.score * (1 - CLEAR_LEAD),
  );
  if (!near.length) return undefined;
  const on = await possibleOn(ctx, {
    ...named,
    only: [best, ...near].map((h) => h.capability),
    describedFor: [best, ...near].map((h) => h.capability),
  });
  if (!on) return undefined;
  const possible = new Set(on.next.map((n) => n.args?.capability));
  const out = near.filter((h) => on.weighed.includes(h.capability) && !possible.has(h.capability));
  const left = topMatch(hits.filter((h) => !out.includes(h)));
  if (on.weighed.includes(best.capability) && !possible.has(best.capability)) {
    const can = near.filter((h) => possible.has(h.capability)).map((h) => h.capability);
    if (can.length) return { id: on.id, can, cannot: [best, ...out].map((h) => h.capability) };
    // Not one of them can take it: the best starts, and its refusal says why (nothing is
    // created). Set BA: "Can I still cancel my headphones order?" (shipped) answered "several
    // capabilities match", and the model read the order's page for the reason.
    if (out.length !== near.length) return undefined;
    return {
      hit: best,
      because: `${on.id} can take none of ${[best, ...near].map((h) => h.capability).join(", ")} now; ${best.capability}, the best match of the words, says why`,
      checkOnly: true,
    };
  }
  if (!out.length || !left?.clear || left.hit !== best) return undefined;
  return {
    hit: best,
    because: `${out.map((h) => h.capability).join(", ")} cannot be started on ${on.id} now, which leaves ${best.capability} the clear match of the words`,
  };
}

/** The "several capabilities match" answer, saying which of them the record can take now (TieOnRecord). */
export function narrowedTie<T extends { message: string }>(answer: T, tie: TieOnRecord): T {
  return {
    ...answer,
    message: `${answer.message}. On ${tie.id} now: ${tie.cannot.join(", ")} cannot start, ${tie.can.join(", ")} can`,
  };
}
