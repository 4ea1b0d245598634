import type { CapabilityHit } from "../../engine/capability-search";
import { CLEAR_LEAD } from "../../engine/top-match";
import type { TrustedContext } from "../trusted-context";
import type { HeldValuesNamed } from "./held-values-named";
import type { PickedBeyondWords } from "./pick-by-record";

/**
 * A near tie of the words settled by what they name on the record: the one match near the best
 * whose start takes, from the words, the value the record holds now for one of its fields. Set BR:
 * "Take Y off the … ticket" (Y holding it) tied a status change ("off hold" in its description)
 * with taking the holder off, and was answered "several capabilities match"; "Y" names the value
 * of the field only the second takes. Started for the agent's check, never run at once: it is
 * the record's word, not the words' (as pick-by-record.ts). Undefined: the tie stands.
 */
export async function pickByHeldValue(
  heldNamed: HeldValuesNamed,
  ctx: TrustedContext,
  asked: { words: string; entityId?: string },
  rivals: readonly CapabilityHit[],
): Promise<PickedBeyondWords | undefined> {
  const near = nearTied(rivals);
  if (near.length < 2) return undefined;
  const named = (await heldNamed(ctx, { ...asked, only: near.map((h) => h.capability) })).filter(
    (n) => Object.keys(n.held).length,
  );
  const [one] = named;
  const hit = one && named.length === 1 ? near.find((h) => h.capability === one.capability) : undefined;
  if (!one || !hit) return undefined;
  const said = Object.entries(one.held)
    .map(([field, value]) => `${field} ${value}`)
    .join(", ");
  return {
    hit,
    because: `the words name what ${one.record} holds now (${said}), which ${hit.capability} takes and ${near
      .filter((h) => h !== hit)
      .map((h) => h.capability)
      .join(", ")} does not`,
    checkOnly: true,
  };
}

/** The best match and those near it (within its clear lead), of the words' kind of record. */
export function nearTied(hits: readonly CapabilityHit[]): CapabilityHit[] {
  const best = hits[0]?.score ?? 0;
  return hits.filter((h) => !h.off_topic && h.score > 0 && h.score >= best * (1 - CLEAR_LEAD));
}
