import type { OutcomeBase } from "../../connectors/sdk/outcome";
import type { CapabilityHit } from "../../engine/capability-search";
import type { TrustedContext } from "../trusted-context";
import type { PossibleOn } from "./pick-by-record";
import { readingPath } from "./reading-path";
import { valueNoneTakes, valueNoneTakesMessage } from "./value-none-takes";

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
  // A value the words set that no capability for the record takes says why (set DA: "Upgrade my
  // unpaid kettle order to same-day delivery": the model searched to learn nothing changes it).
  const value = words ? valueNoneTakes(ctx, words, about) : null;
  const why = value ? `: ${valueNoneTakesMessage(value, about[0]?.applies_to ?? "record")}` : "";
  return {
    ...rest,
    message: on.next.length
      ? `No capability does what these words ask on ${on.id}${why}; possible there now (one call each): see next`
      : `No capability does what these words ask on ${on.id}${why}, and nothing can be started there now. ${readingPath(ctx, words ?? "")}`,
    next_actions: on.next,
  };
}
