import type { AnyCapability, FieldWords } from "../connectors/sdk/define-capability";
import { askPart } from "./described-records";

/** The declared words of `field` (NodeDefinition.saidBy), or undefined where none are declared. */
export function fieldWordsOf(capability: AnyCapability, field: string): FieldWords | undefined {
  for (const node of capability.nodes) {
    const said = node.saidBy?.[field];
    if (said) return said;
  }
  return undefined;
}

/** Every declared consequential field of the capability, in node order. */
export function saidByFields(capability: AnyCapability): Array<[string, FieldWords]> {
  return capability.nodes.flatMap((n) => Object.entries(n.saidBy ?? {}));
}

/**
 * The value of a consequential field the user's words name by one of its declared phrases
 * ("add an internal note" → internal true; "reply to the customer" → false). `several` when they
 * name more than one value: no value is taken, and a change nobody approves waits for the user's
 * word (defaultsHold). Undefined when no phrase is said: the field's own name may still be
 * (flag-words.ts). Read in the ask, never in quoted text or a value a field already holds (a
 * comment's body that says "reply" is the body's word); a phrase right after a refusal ("not an
 * internal note") names nothing.
 */
export function saidByWords(
  words: FieldWords,
  request: string,
  given: string[] = [],
): { value: string | boolean } | { several: true } | undefined {
  let text = ` ${askPart(request).replace(QUOTED, " ").toLowerCase().replace(/n't\b/g, " not")} `;
  for (const value of given) if (value.length >= 8) text = text.split(value.toLowerCase()).join(" ");
  const flat = text.replace(/[^\p{L}\p{N}]+/gu, " ");
  const named = new Set<string | boolean>();
  for (const { value, words: phrases } of words.values)
    if (phrases.some((p) => saysPhrase(flat, p.toLowerCase()))) named.add(value);
  if (named.size > 1) return { several: true };
  const [value] = [...named];
  return value === undefined ? undefined : { value };
}

/** The phrase said as whole words, and not right after a refusal ("not", "no", "without"). */
function saysPhrase(flat: string, phrase: string): boolean {
  const needle = ` ${phrase.replace(/[^\p{L}\p{N}]+/gu, " ").trim()} `;
  let at = flat.indexOf(needle);
  while (at >= 0) {
    const before = flat.slice(0, at).trim().split(" ").slice(-REFUSAL_REACH);
    if (!before.some((w) => REFUSALS.has(w))) return true;
    at = flat.indexOf(needle, at + 1);
  }
  return false;
}

/** The entry's line for a field: the words naming each value, what happens otherwise, and the default. */
export function saidByLine(words: FieldWords, fallback: unknown): string {
  const named = words.values.map((v) => `"${v.words[0]}" = ${String(v.value)}`).join(", ");
  return `from words (${named}), else asked; default ${String(fallback)} = ${words.defaultMeans}`;
}

/** Text in quotes, opened after a space, colon or bracket (never a "don't" apostrophe). */
const QUOTED = /(^|[\s:(])(["'“‘«])[^"'”’»]*["'”’»](?=$|[\s.,;:!?)])/g;
const REFUSALS = new Set(["not", "no", "without", "never", "nor"]);
const REFUSAL_REACH = 2;
