import type { Actor, AnyCapability, Values } from "../connectors/sdk/define-capability";
import { catchSystemUnavailable } from "./catch-system-unavailable";
import { createdByAgent } from "./created-by-agent";
import type { EngineDeps } from "./engine-deps";
import { type Evaluation, evaluateAction } from "./evaluate-action";

/**
 * What a start of this capability would take from the user's words, read with the very
 * evaluation a start runs, saving nothing (record-in-words.ts, held-values-in-words.ts). Null
 * where the system cannot be asked now, the record given is not there, or the connector cannot be
 * reached (no credentials, or a bug in one capability): nothing is named then.
 */
export async function startReadFromWords(
  deps: EngineDeps,
  actor: Actor,
  capability: AnyCapability,
  words: string,
  given: Values = {},
): Promise<Evaluation | null> {
  try {
    const adapter = await deps.adapterFor(capability.connector, actor);
    const ev = await catchSystemUnavailable(() =>
      evaluateAction(capability, adapter, actor, given, { request: words }, (entity, ids) =>
        createdByAgent(deps.db, deps.capabilities, actor, entity, ids),
      ),
    );
    return "unavailable" in ev || ev.notFound ? null : ev;
  } catch {
    return null;
  }
}
