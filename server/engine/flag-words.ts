import { z } from "zod";
import { wordTokens } from "./choice-words";
import { askPart } from "./described-records";
import { straightApostrophes } from "./straight-apostrophes";

/**
 * A yes/no field the user's words name: "add an internal note" sets `internal`, "don't make it
 * internal" clears it. Played (issue 23, new tasks): "Add an internal note to tkt_3" answered
 * `internal = false (default)`, "shown to the customer", and only the model's dry run kept the
 * note from the customer. The field is named by every word of its name (`notify_customer`:
 * "notify … customer", within a few words), never inside text the user quoted or the text a field
 * already holds (a comment's body that says "internal" is the body's word, not a setting).
 * Undefined when the field is no yes/no or the words do not name it: the default stays, said as one.
 */
export function flagInWords(
  field: string,
  schema: z.ZodType,
  request: string,
  given: string[],
): boolean | undefined {
  if (!isFlag(schema)) return undefined;
  const name = field
    .toLowerCase()
    .split("_")
    .filter((w) => w.length >= 3 && !LEADS.has(w));
  if (!name.length) return undefined;
  // The ask, not its detail: after the one colon comes the text a field holds ("Comment on tkt_3:
  // our internal team is checking" set internal, a review found), quoted or not.
  let text = askPart(straightApostrophes(request)).replace(QUOTED, " ");
  for (const value of given) if (value.length >= 8) text = text.split(straightApostrophes(value)).join(" ");
  const words = wordTokens(text.replace(/n't\b/gi, " not"));
  const at = name.map((w) => words.findIndex((t) => sameWord(t, w)));
  if (at.some((i) => i < 0)) return undefined;
  if (Math.max(...at) - Math.min(...at) > NAME_REACH) return undefined;
  return !refusedBefore(text, name[0] as string);
}

/**
 * Whether a refusal stands right before the name, in its own phrase: "not internal", "don't make
 * it internal"; never one a comma or dash ends ("Not a reply, an internal note" is internal: the
 * review found it shown to the customer, its "not" read as the note's).
 */
function refusedBefore(text: string, word: string): boolean {
  const raw = text.toLowerCase().replace(/n't\b/g, " not");
  const tokens = raw.match(/[\p{L}\p{N}]+|[,.;:!?()\u2013\u2014-]/gu) ?? [];
  const at = tokens.findIndex((t) => sameWord(t, word));
  if (at < 0) return false;
  for (let i = at - 1; i >= Math.max(0, at - 1 - REFUSAL_REACH); i--) {
    const t = tokens[i] as string;
    if (/^[,.;:!?()\u2013\u2014-]$/.test(t)) return false;
    if (REFUSALS.has(t)) return true;
  }
  return false;
}

/** Words a yes/no field's name starts with that no one says ("is_internal", "has_gift_wrap"). */
const LEADS = new Set(["is", "has", "should", "with", "use"]);
/** Text in quotes, opened after a space, colon or bracket (never a "don't" apostrophe). */
const QUOTED = /(^|[\s:(])(["'“‘«])[^"'”’»]*["'”’»](?=$|[\s.,;:!?)])/g;
/** How far apart the words of one field name may be ("notify the customer"). */
const NAME_REACH = 3;
/** How far before the name a refusal turns it down ("not internal", "don't make it internal"). */
const REFUSAL_REACH = 3;
const REFUSALS = new Set(["not", "no", "without", "never", "non", "nor"]);

/** The same word, or one of its forms ("internally", "notifying"): a shared stem of 4 letters and more. */
function sameWord(said: string, word: string): boolean {
  if (said === word) return true;
  if (said.length < 4 || word.length < 4) return false;
  let n = 0;
  while (n < said.length && n < word.length && said[n] === word[n]) n++;
  return n >= Math.max(4, word.length - 2);
}

function isFlag(schema: z.ZodType): boolean {
  try {
    return (
      (z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as { type?: unknown }).type ===
      "boolean"
    );
  } catch {
    return false;
  }
}
