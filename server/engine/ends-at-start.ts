import type { AnyCapability } from "../connectors/sdk/define-capability";
import type { ValidationError } from "../connectors/sdk/outcome";

/**
 * Whether a start's errors end its action in the same call (status `refused`, nothing held, no
 * cancel owed) instead of leaving it open for a fix. A start carries what the user asked for
 * (start_action takes "every field they gave", their words, the record they named), so:
 *
 * - it ends when nothing the agent could send carries out that request: a refusal (`refused`:
 *   nothing any field could change makes it possible now); the record the start named cannot
 *   take the change (an error on the capability's record field: its state refuses it); the
 *   choice it was given cannot be taken now (`choice_closed`: sold out; the user chooses again
 *   from the ones its message names); or what the start asked for is already so (`already`:
 *   nothing would change);
 * - it stays open when a different value would fix it: a wrong or unknown value (no choice
 *   matches it), which is the agent's to correct, and "already so" on a field the start did not
 *   give (a default the action chose itself), as the user asked for no such value.
 *
 * advance_action never ends an action this way: its values answer the action's own question,
 * perhaps with the agent's pick, so another value (or cancel_action) stays on offer there.
 */
export function endsAtStart(
  capability: Pick<AnyCapability, "appliesTo">,
  errors: readonly ValidationError[],
  given: readonly string[],
): boolean {
  const gave = new Set(given);
  const record = capability.appliesTo.field;
  return (
    errors.length > 0 &&
    errors.every((e) => {
      if (e.refused) return true;
      const field = e.field.split(/[[.]/)[0] ?? e.field;
      return (
        gave.has(field) && (e.already === true || e.choice_closed === true || (!!record && field === record))
      );
    })
  );
}

/** Whether the start ended because what it asked for is already so (its answer says "nothing to change"). */
export function alreadySo(errors: readonly ValidationError[]): boolean {
  return errors.some((e) => e.already === true);
}
