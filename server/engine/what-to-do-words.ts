import type { AnyCapability } from "../connectors/sdk/define-capability";
import { AGE_WORDS, choicesFor, wordTokens } from "./choice-words";
import { namePhrase } from "./name-phrase";
import { valueWordsOf } from "./value-words";

/**
 * Words of a request that say what to do rather than which record: the capability's own (its id,
 * title and synonyms) and those of its other fields (their names, their fixed values and the other
 * words the connector declares for them: set AU, "pay my unpaid order from my store credit" asked
 * which order for "store", a word of the balance; only where no record says them), less the
 * words in the record's name phrase (`says`: some record says the word). "Every urgent ticket"
 * describes tickets by "urgent", though it is also a priority the change sets and a synonym of
 * changing it (issue 23: the described ticket was named by nothing).
 */
export function whatToDoWords(
  capability: AnyCapability,
  request: string,
  says: (token: string) => boolean,
): Set<string> {
  const out = new Set<string>();
  const add = (text: string) => {
    for (const t of wordTokens(text.replace(/[_-]/g, " "))) out.add(t);
  };
  // Which end by age is the age reading's (choice-words.ts), never a fact a row says.
  for (const w of Object.keys(AGE_WORDS)) out.add(w);
  add(capability.id);
  add(capability.title);
  for (const s of capability.synonyms) add(s);
  const recordField = capability.appliesTo.field ?? "";
  for (const node of capability.nodes)
    for (const [f, schema] of Object.entries(node.fields ?? {})) {
      if (f === recordField) continue;
      add(f);
      for (const r of choicesFor(f, {}, schema, valueWordsOf(capability, f))) {
        add(r.value);
        // A declared word a record says still tells records apart (review: "the headphones
        // ticket, the one that's paused" named the paused one, not the other headphones one).
        for (const name of r.names)
          for (const t of wordTokens(name.replace(/[_-]/g, " "))) if (!says(t)) out.add(t);
      }
    }
  const noun = wordTokens(capability.appliesTo.entity)[0] ?? "";
  for (const t of namePhrase(request, noun, says).tokens) out.delete(t);
  return out;
}
