import type { CapabilityHit } from "../../engine/capability-search";

/** The matches besides the one started, named on its answer (none: no key). */
export function otherMatches(hits: readonly CapabilityHit[], started: unknown): { other_matches?: string[] } {
  const others = hits.filter((h) => h.capability !== started).map((h) => h.capability);
  return others.length ? { other_matches: others } : {};
}
