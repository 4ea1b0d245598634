import type { Actor, AnyCapability } from "../connectors/sdk/define-capability";
import type { EngineDeps } from "./engine-deps";
import { startReadFromWords } from "./start-read-from-words";

/**
 * The record a start of this capability would take from the user's words ("the kettle refund
 * ticket", "the order you placed"): the one its record choices and the words fit, read with the
 * very evaluation a start runs, saving nothing. A capability's choices hold the records it can take, so a record named
 * here is one it can take now. Null: the words name none of them (or several), or the system
 * cannot be asked now.
 */
export async function recordInWords(
  deps: EngineDeps,
  actor: Actor,
  capability: AnyCapability,
  words: string,
  /** Only a record the words describe (why it was picked said), never the only one it can take. */
  described = false,
): Promise<string | null> {
  const field = capability.appliesTo.field;
  if (!field || !words.trim()) return null;
  const ev = await startReadFromWords(deps, actor, capability, words);
  if (!ev || ev.fromWords[field] === undefined) return null;
  if (described && !ev.whyPicked[field]) return null;
  const id = ev.values[field];
  return typeof id === "string" ? id : null;
}
