import type { FieldScale, NodeDefinition, Values } from "../connectors/sdk/define-capability";
import type { ValidationError } from "../connectors/sdk/outcome";
import { queryClauses } from "./query-clauses";

/**
 * A value on a scale that moves the record the other way than the user's words say: "Lower the
 * address ticket to normal" on a ticket that is low would raise it (set CP: the change ran at
 * once, with nobody's approval, against the word "lower"). Only a value the words took, or one
 * sent beside them at the start, is read so; a value sent later is the user's answer and stands.
 * Words saying both ways ("decrease it, it is … higher") leave the way unclear: asked too.
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
    const said = directionsIn(scale, request);
    const up = to > from;
    const against = said.find((s) => s.up !== up);
    if (!against) continue;
    const both = said.some((s) => s.up === up);
    return {
      field,
      code: "against_words",
      message: `${
        both
          ? `the words say both "${said[0]?.word}" and "${said.find((s) => s.up !== said[0]?.up)?.word}"`
          : `the words say "${against.word}"`
      }, but its ${field} is ${scale.order[from]} now: ${values[field]} would ${up ? "raise" : "lower"} it; ask the user which ${field} they mean`,
    };
  }
  return undefined;
}

/** Words after which a direction word is not asked: a negation, or a word making it a description. */
const NOT_ASKED = new Set(
  "not never no don dont doesn didn won cannot without a an the my its their your his her our this that is was are were be been being".split(
    " ",
  ),
);
/** How many words may stand between the parts of a phrase ("bring tkt_4 down"). */
const GAP = 3;

/**
 * The ways the asking words move along the scale, each with the phrase that says it, in the order
 * said: a phrase of `up` or `down` in an ask's clause (not a situation, nor an aside in
 * parentheses), in any inflection ("lowered", "decreasing"), a longer phrase over one inside it,
 * none right after a negation or a word that makes it a description ("a lower price", "is higher
 * than"). Phrases of scripts without spaces are found as they are written.
 */
function directionsIn(scale: FieldScale, request: string): Array<{ up: boolean; word: string }> {
  const asked = queryClauses(request.toLowerCase())
    .filter((c) => c.role === "request")
    .map((c) => c.text.replace(/\([^)]*\)/g, " "))
    .join(" . ");
  const tokens = asked.match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*|\./gu) ?? [];
  const stems = tokens.map(stemOf);
  const hits: Array<{ at: number; end: number; up: boolean; word: string }> = [];
  for (const [up, phrases] of [
    [true, scale.up],
    [false, scale.down],
  ] as const)
    for (const phrase of phrases) {
      if (/[\p{Script=Han}]/u.test(phrase)) {
        const at = asked.indexOf(phrase);
        if (at >= 0) hits.push({ at: -1 - at, end: -1 - at, up, word: phrase });
        continue;
      }
      const parts = (phrase.toLowerCase().match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? []).map(stemOf);
      for (let at = 0; at < stems.length; at++) {
        if (
          stems[at] !== parts[0] ||
          NOT_ASKED.has(tokens[at - 1] ?? "") ||
          NOT_ASKED.has(tokens[at - 2] ?? "")
        )
          continue;
        let end = at + 1;
        for (const part of parts.slice(1)) {
          const next = stems.slice(end, end + GAP + 1).findIndex((s) => s === part);
          if (next < 0 || stems.slice(end, end + next).includes(".")) {
            end = -1;
            break;
          }
          end += next + 1;
        }
        if (end > 0) hits.push({ at, end, up, word: phrase });
      }
    }
  return hits
    .filter(
      (h) => !hits.some((o) => o !== h && o.at <= h.at && o.end >= h.end && o.end - o.at > h.end - h.at),
    )
    .sort((a, b) => a.at - b.at);
}

/** A word without its hyphens and its inflection: "lowered", "lowering" → "lower"; "de-escalate" → "deescalat". */
function stemOf(word: string): string {
  const w = word.replace(/-/g, "");
  // A doubled last consonant is one ("dropped" → drop).
  const cut = w.replace(/(?:ing|ed|es|e|s)$/, "").replace(/([bdgmnprt])\1$/, "$1");
  return cut.length >= 3 ? cut : w;
}
