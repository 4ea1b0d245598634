import type { AnyCapability, Values } from "../connectors/sdk/define-capability";
import { countOfWord } from "../number-words";
import { choicesFor, requestParts, wordTokens } from "./choice-words";

/** A count said as a number ("2", "two"), never "a"/"an", which only says which thing. */
function saidCount(part: string): number | undefined {
  for (const t of part.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (t === "a" || t === "an") continue;
    const n = countOfWord(t);
    if (n) return n;
  }
  return undefined;
}

/** Whether the phrase's words stand in these words, one after the other (stop words aside). */
function saysPhrase(said: readonly string[], phrase: string): boolean {
  const needle = wordTokens(phrase);
  return !!needle.length && said.some((_, i) => needle.every((w, j) => said[i + j] === w));
}

/**
 * The count a request gives a node's declared count field (NodeDefinition.counts) for the thing
 * its other field already holds: a `none` phrase is 0, or what stays when it counts fewer than the
 * chosen row holds ("remove one" of three leaves two); a `more` phrase adds the number (1 when it
 * says none) to what the row holds; else the number said with the thing. The row's own count is
 * its value under the count field's name. Undefined when the words say no count: the agent asks.
 */
export function countInWords(
  capability: AnyCapability,
  field: string,
  request: string,
  values: Values,
  lists: Record<string, unknown>,
): number | undefined {
  const rule = capability.nodes.find((n) => n.counts?.[field])?.counts?.[field];
  const chosen = rule ? values[rule.of] : undefined;
  if (!rule || typeof chosen !== "string") return undefined;
  const row = choicesFor(rule.of, lists).find((r) => r.value === chosen);
  const held = typeof row?.row[field] === "number" ? (row.row[field] as number) : 0;
  // The part of the request that names the thing: "3 of these and one of those" counts each apart.
  const parts = requestParts(request).filter((p) => p.trim());
  const naming = row ? parts.find((p) => wordTokens(p).some((t) => row.tokens.has(t))) : undefined;
  const part = naming ?? request;
  const said = wordTokens(part);
  // A number no count reads whole ("-3", "1e9", "2.5") is no count: the agent asks (review 52c:
  // "add -3 mugs" set five, "add 1e9 mugs" three).
  if (/-\s*\d|\d[eE][+-]?\d|\d[.,]\d/.test(part)) return undefined;
  // Nor where the words deny it ("don't remove the mug"): review 52c read "remove" past its "don't".
  if (/\b(?:not|never|don['’]?t|dont|no longer)\b/.test(part.toLowerCase())) return undefined;
  const n = saidCount(part);
  if ((rule.none ?? []).some((p) => saysPhrase(said, p))) return n !== undefined && n < held ? held - n : 0;
  if ((rule.more ?? []).some((p) => saysPhrase(said, p))) return held + (n ?? 1);
  // "a"/"an" count one where nothing else counts: "put a … in" is one.
  return n ?? (/\b(?:a|an)\b/i.test(part) && naming ? 1 : undefined);
}
