import type { FieldScale, NodeDefinition, Values } from "../connectors/sdk/define-capability";
import type { ValidationError } from "../connectors/sdk/outcome";

/**
 * A value on a scale that moves the record the other way than the user's words say: "Lower the
 * address ticket to normal" on a ticket that is low would raise it (set CP: the change ran at
 * once, with nobody's approval, against the word "lower"). Only a value the words took, or one
 * sent beside them at the start, is read so; a value sent later is the user's answer and stands.
 * The error names the word, where the record stands and which way the value would move it.
 */
export function againstDirection(
  node: NodeDefinition<unknown>,
  values: Values,
  fromWords: Record<string, string>,
  sentAtStart: Values,
  row: Record<string, unknown> | undefined,
  request: string,
): ValidationError | undefined {
  if (!row) return undefined;
  for (const [field, scale] of Object.entries(node.scales ?? {})) {
    if (!(field in fromWords) && !(field in sentAtStart)) continue;
    const to = scale.order.indexOf(String(values[field]));
    const from = scale.order.indexOf(String(row[field]));
    if (to < 0 || from < 0 || to === from) continue;
    const said = directionIn(scale, request);
    if (!said || said.up === to > from) continue;
    return {
      field,
      code: "against_words",
      message: `the words say "${said.word}", but its ${field} is ${scale.order[from]} now: ${values[field]} would ${
        to > from ? "raise" : "lower"
      } it; ask the user which ${field} they mean`,
    };
  }
  return undefined;
}

/**
 * Which way the words move along the scale: the first phrase of `up` or `down` they hold as whole
 * words, a longer phrase over any phrase inside it ("de-escalate" is down, not "escalate"). None,
 * or both ways: undefined.
 */
function directionIn(scale: FieldScale, request: string): { up: boolean; word: string } | undefined {
  const tokens = request.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const hits: Array<{ at: number; end: number; up: boolean; word: string }> = [];
  for (const [up, phrases] of [
    [true, scale.up],
    [false, scale.down],
  ] as const)
    for (const phrase of phrases) {
      const parts = phrase.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      if (!parts.length) continue;
      for (let at = 0; at + parts.length <= tokens.length; at++)
        if (parts.every((p, k) => tokens[at + k] === p))
          hits.push({ at, end: at + parts.length, up, word: phrase });
    }
  const kept = hits.filter(
    (h) => !hits.some((o) => o !== h && o.at <= h.at && o.end >= h.end && o.end - o.at > h.end - h.at),
  );
  const ways = new Set(kept.map((h) => h.up));
  return ways.size === 1 ? kept[0] : undefined;
}
