import type { AnyCapability, Values } from "../connectors/sdk/define-capability";
import { choicesFor, namedInWords, wordTokens } from "./choice-words";
import { askPart } from "./described-records";
import { howPastAsVerb } from "./how-past";
import { present } from "./present-value";
import { valueWordsOf } from "./value-words";

/**
 * The fixed choices of later steps that the user's request names, taken while the action stops at
 * an earlier step: "…and pay from my account balance" while the checkout still asks for shipping.
 * Played (issue 23): a start by words that said "balance" answered `later: payment_type (balance |
 * card)`, and the model had to send back what the user had already said.
 *
 * Only a field's own fixed values (its enum) are read: a later step's offered rows are not known
 * before it runs. A value is taken only when the words name exactly one (a word in several values
 * names none) with all of its words, next to a word of the field's own kind ("pay", "ship"), and
 * never by a word that also describes a record offered now ("open" of an open ticket is which
 * ticket, not a later status). Anything less is left to the step itself. The values go where an
 * advance would put them; the engine applies them in node order and checks them there, and the
 * answer shows them as taken.
 */
export function laterChoicesInWords(
  capability: AnyCapability,
  index: number,
  values: Values,
  options: Record<string, unknown>,
  request: string,
): Record<string, string> {
  const offered = offeredWords(options);
  const out: Record<string, string> = {};
  for (const node of capability.nodes.slice(index + 1)) {
    if (node.requiresConfirmation) break;
    for (const [field, schema] of Object.entries(node.fields ?? {})) {
      if (present(values[field]) || field in out) continue;
      const rows = choicesFor(field, {}, schema, valueWordsOf(capability, field));
      if (rows.length < 2) continue;
      // "…, paid from my balance" is "pay from my balance"; "I paid by card" tells of the past.
      const asked = howPastAsVerb(askPart(request, rows));
      const named = namedInWords(rows, asked);
      if (!named) continue;
      const words = wordTokens(asked);
      const said = words.filter((t) => named.tokens.has(t));
      if (said.some((t) => offered.has(t))) continue;
      // Every word of the value, or of one of the other names its connector declares for it
      // ("store credit"), next to a word of the field's own ("pay … balance", "ship it same
      // day"): a review found "buy a gift card" setting payment_type card and "the same mug
      // again" setting same_day shipping, words of a value used in another sense.
      const whole = (name: string) => {
        const own = wordTokens(name);
        return own.length > 0 && own.every((t) => words.includes(t));
      };
      if (![named.value.replace(/[_-]/g, " "), ...named.names].some(whole)) continue;
      if (!nearCue(words, named.tokens, field)) continue;
      out[field] = named.value;
    }
  }
  return out;
}

/** How far apart the field's cue and the value's word may be, in words. */
const CUE_REACH = 4;

/**
 * Whether a word of the value sits within a few words of a word that names the field's kind
 * (sharing its first three letters and more with the field name's first word: pay → payment,
 * ship → shipping, priority → priority).
 */
function nearCue(words: string[], value: Set<string>, field: string): boolean {
  const kind = (field.split("_")[0] ?? "").toLowerCase();
  const cue = (t: string) => t.length >= 3 && commonPrefix(t, kind) >= 3;
  const cues = words.flatMap((t, i) => (cue(t) ? [i] : []));
  return words.some((t, i) => value.has(t) && cues.some((c) => c !== i && Math.abs(c - i) <= CUE_REACH));
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** Every word of the rows offered now (their string values): what describes a record here. */
function offeredWords(options: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(options)) {
    const rows = Array.isArray(list) ? list : list && typeof list === "object" ? [list] : [];
    for (const row of rows)
      if (row && typeof row === "object")
        for (const v of Object.values(row as Record<string, unknown>))
          if (typeof v === "string") for (const t of wordTokens(v.replace(/[_-]/g, " "))) out.add(t);
  }
  return out;
}
