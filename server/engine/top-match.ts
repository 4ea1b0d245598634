import type { CapabilityHit } from "./capability-search";

/**
 * How far ahead the best hit must be (its lead: 1 − second score / best score) to count as
 * clearly best. Chosen on the public dev sets (test/engine/capability-search.test.ts prints the
 * leads): no wrong first hit there leads by this much, while six in seven right ones do.
 */
export const CLEAR_LEAD = 0.5;

export interface TopMatch {
  hit: CapabilityHit;
  /** 1 − second score / best score: 1 when nothing else matched, 0 on a tie. */
  lead: number;
  /** The lead reaches `minLead`: safe to start without asking which capability was meant. */
  clear: boolean;
}

/**
 * The best of ranked hits (as search returned them, after any filtering by what the caller may
 * see) with how clearly it beats the next one; null when nothing matched.
 */
export function topMatch(hits: readonly CapabilityHit[], minLead: number = CLEAR_LEAD): TopMatch | null {
  const [best, second] = hits;
  if (!best || best.score <= 0) return null;
  const lead = second ? Math.max(0, 1 - second.score / best.score) : 1;
  return { hit: best, lead: Math.round(lead * 1000) / 1000, clear: lead >= minLead };
}
