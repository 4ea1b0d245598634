import type { Actor, AnyCapability } from "../connectors/sdk/define-capability";
import { catchSystemUnavailable } from "./catch-system-unavailable";
import { endsAtStart } from "./ends-at-start";
import type { EngineDeps } from "./engine-deps";
import { evaluateAction } from "./evaluate-action";

/**
 * Which of these capabilities a start on this record would go on with: the record found and its
 * state not refusing the change (what endsAtStart ends at once), read with the very evaluation a
 * start runs, without words, saving nothing. So a refusal can say what is possible there instead
 * of only what is not. A capability whose system cannot be asked now is left out.
 */
export async function startsAllowed(
  deps: EngineDeps,
  actor: Actor,
  capabilities: readonly AnyCapability[],
  recordId: string,
): Promise<AnyCapability[]> {
  const verdicts = await Promise.all(
    capabilities.map(async (capability) => {
      const field = capability.appliesTo.field;
      if (!field) return false;
      try {
        const adapter = await deps.adapterFor(capability.connector, actor);
        const ev = await catchSystemUnavailable(() =>
          evaluateAction(capability, adapter, actor, { [field]: recordId }),
        );
        if ("unavailable" in ev || ev.notFound) return false;
        if (endsAtStart(capability, ev.errors, [field])) return false;
        // A read whose nodes pass answers at its start: a read the system refuses ("has not
        // shipped yet") is no possibility either.
        const read = capability.read;
        if (!read || ev.errors.length || ev.missing.length) return true;
        const answer = await catchSystemUnavailable(() =>
          read({ adapter, actor, values: ev.values, derived: ev.derived }),
        );
        return !("unavailable" in answer) && !("error" in answer);
      } catch {
        // A connector without its credentials, or a bug in one capability: it is not offered,
        // and the refusal it decorates still answers.
        return false;
      }
    }),
  );
  return capabilities.filter((_, i) => verdicts[i]);
}
