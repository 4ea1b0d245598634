import type { Actor, AnyCapability } from "../connectors/sdk/define-capability";
import { choicesFor, rowOf, wordTokens } from "./choice-words";
import type { EngineDeps } from "./engine-deps";
import type { Evaluation } from "./evaluate-action";
import { recordRow } from "./replaced-values";
import { startReadFromWords } from "./start-read-from-words";

/** What a start on the words took for the capability's fields, against what its record holds now. */
export interface HeldInWords {
  record: string;
  /** Field → the value the start took from the words (the record field aside). */
  taken: Record<string, string>;
  /** Of those, the ones the record holds now: the words name its current value of that field. */
  held: Record<string, string>;
}

/**
 * What the user's words name for this capability's fields, on the record a start of them takes,
 * read with the very evaluation a start runs, saving nothing: each value taken from the words,
 * and which of them the record's own row holds now ("take Y off the … ticket": Y is whom it is
 * assigned to). Words naming a field's current value are about that field, so about the
 * capabilities that take it (set BR: they tied a status change, whose description says "off
 * hold", with taking the holder off). Null: no record taken, or the system cannot be asked now.
 */
export async function heldValuesInWords(
  deps: EngineDeps,
  actor: Actor,
  capability: AnyCapability,
  words: string,
  recordId?: string,
): Promise<HeldInWords | null> {
  const field = capability.appliesTo.field;
  if (!field || !words.trim()) return null;
  const ev = await startReadFromWords(deps, actor, capability, words, recordId ? { [field]: recordId } : {});
  const record = ev?.values[field];
  if (!ev || typeof record !== "string") return null;
  const row = recordRow(capability, ev);
  const taken: Record<string, string> = {};
  const held: Record<string, string> = {};
  for (const f of Object.keys(ev.fromWords)) {
    const value = ev.values[f];
    if (f === field || typeof value !== "string") continue;
    taken[f] = value;
    if (row?.[f] === value && saysOwnWords(capability, ev, f, value, words)) held[f] = value;
  }
  return { record, taken, held };
}

/**
 * Whether the words say the value by its own words (a name the node offers it under, or the
 * value's parts), not only by words the connector declares for it: "take Y off" is no word of the
 * status "open", though "take off" is declared as one (set BR: it named the ticket's status too).
 */
function saysOwnWords(
  capability: AnyCapability,
  ev: Evaluation,
  field: string,
  value: string,
  words: string,
) {
  const schema = capability.nodes.find((n) => n.fields?.[field])?.fields?.[field];
  const row = choicesFor(field, ev.options, schema).find((r) => r.value === value) ?? rowOf(value, {});
  return wordTokens(words).some((t) => row.tokens.has(t));
}
