import type { CapabilityHit } from "../../engine/capability-search";
import { topMatch } from "../../engine/top-match";
import type { PickedBeyondWords } from "./pick-by-record";

/**
 * The match the fields sent mean where the best match by words does not take them all: the only
 * match that takes every field sent, or the clear leader of those that do. Issue 23 (played): a
 * patch of fields only one match had was answered "the best match does not take …", a call more.
 * The caller starts it without running it at once (the words preferred another), and says why.
 */
export function pickByFields(
  hits: readonly CapabilityHit[],
  fields: readonly string[],
): PickedBeyondWords | undefined {
  const [best] = hits;
  if (!best || !fields.length) return undefined;
  const lacks = fields.filter((f) => !best.inputs.includes(f));
  if (!lacks.length) return undefined;
  const taking = hits.filter((h) => !h.off_topic && h.score > 0 && fields.every((f) => h.inputs.includes(f)));
  const lead = taking.length === 1 ? taking[0] : topMatch(taking)?.clear ? taking[0] : undefined;
  if (!lead) return undefined;
  return {
    hit: lead,
    because: `it takes every field sent (${fields.join(", ")}); the best match by the words, ${best.capability}, does not take ${lacks.join(", ")}. Not run at once: check it is what the user asked`,
  };
}
