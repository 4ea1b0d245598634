import type { OutcomeBase } from "../../connectors/sdk/outcome";
import type { CapabilityHit } from "../../engine/capability-search";
import type { TrustedContext } from "../trusted-context";
import type { PossibleOn } from "./pick-by-record";
import { readingPath } from "./reading-path";

type Outcome = OutcomeBase & Record<string, unknown>;

/**
 * A refusal of words no capability does, on a record the start names (entity_id, or the one id
 * the words quote): what can be started there now, one call each, in place of its matches and
 * their calls (which did not fit). Issue 23 (played): "No capability does what these words ask"
 * alone left the model nothing to tell the user.
 */
export async function withPossible(
  possibleOn: PossibleOn,
  ctx: TrustedContext,
  entityId: string | undefined,
  words: string | undefined,
  about: readonly CapabilityHit[],
  refusal: Outcome,
): Promise<Outcome> {
  // Without an id, the record the words describe among the choices of the capabilities about
  // its kind (set W: "take the mug off my lamp order" was refused naming no order at all).
  const describedFor = about.map((h) => h.capability);
  const on = await possibleOn(ctx, { entityId, words, describedFor, kin: true });
  if (!on) return refusal;
  const { results: _matches, ...rest } = refusal;
  return {
    ...rest,
    message: on.next.length
      ? `No capability does what these words ask on ${on.id}; possible there now (one call each): see next`
      : `No capability does what these words ask on ${on.id}, and nothing can be started there now. ${readingPath(ctx, words ?? "")}`,
    next_actions: on.next,
  };
}
