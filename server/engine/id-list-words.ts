import { z } from "zod";
import { type ChoiceRow, choicesFor, namedInWords, wordTokens } from "./choice-words";
import { askPart } from "./described-records";

/**
 * The ids a request names for a list-of-ids field (`item_ids`), read through the rows the node
 * offers for one id (`item_id`): each part of the ask ("the kettle and the mug") that names one
 * row. Played (round 25): "Return the mugs from my kettle order — they arrived chipped" took the
 * order and the kind and still answered "DETAILS needs item_ids" with the mug's line in plain view.
 *
 * The phrase that says which record the things come from ("from my kettle order") describes the
 * record, not the things: its words are left out. A part that names no row, or several equally,
 * names nothing; undefined when no part names one, and the field stays the user's to give.
 */
export function idListInWords(
  field: string,
  schema: z.ZodType,
  options: Record<string, unknown>,
  request: string,
  entity: string,
): string[] | undefined {
  const ids = [
    ...new Set((idListParts(field, schema, options, request, entity) ?? []).map((p) => p.row.value)),
  ];
  return ids.length && schema.safeParse(ids).success ? ids : undefined;
}

/**
 * Each part of the ask that names one row of a list-of-ids field, with its words ("return one of
 * the two mugs": the mug's line, and the words that count it); undefined when the field is no
 * such list. What idListInWords reads, and partial-line-words.ts.
 */
export function idListParts(
  field: string,
  schema: z.ZodType,
  options: Record<string, unknown>,
  request: string,
  entity: string,
): Array<{ part: string; row: ChoiceRow }> | undefined {
  if (!field.endsWith("s") || !isIdList(schema)) return undefined;
  const rows = choicesFor(field.slice(0, -1), options);
  if (rows.length < 2) return undefined;
  const noun = wordTokens(entity)[0];
  let asked = askPart(request, rows);
  // The words that say which record ("my kettle order", "the order for the kettle") are the
  // record's, wherever they stand: a review found "find my kettle order and return the mugs"
  // returning the kettle too. From the preposition nearest the record's name: "one of the two
  // mugs from my kettle order" lost the mugs with the record's words. What the record holds,
  // said of it up to the clause's end or a word saying what happened to it ("my order that had a
  // tee and a mug — the mug arrived chipped", "my order with the tee and the mug arrived and the
  // mug is chipped"; not "the tee that was too small"), is the record's too: played (set CF),
  // both lines were taken for the mug's return.
  const holds = `(?:\\s+for\\s+(?:the\\s+|my\\s+|a\\s+)?[\\p{L}\\p{N}-]+|(?:\\s+(?:that|which))?\\s+(?:with|had|has|have|held|holds|contained|contains|containing|holding|having)\\b(?:(?!\\b(?:but|so|because)\\b|(?<!\\b(?:that|which|who)\\s+)\\b(?:arrived|came|is|are|was|were)\\b)[^,.;:!?—–])*)?`;
  if (noun)
    asked = asked
      .replace(
        new RegExp(
          `\\b(?:from|in|of|on|for)\\b(?:(?!\\b(?:from|in|of|on|for)\\b)[^,.;:!?])*?\\b${noun}s?\\b${holds}`,
          "giu",
        ),
        " ",
      )
      .replace(new RegExp(`(?:[\\p{L}\\p{N}'’-]+\\s+){0,3}${noun}s?\\b${holds}`, "giu"), " ");
  const out: Array<{ part: string; row: ChoiceRow }> = [];
  for (const part of asked.split(/[,;&+]|\band\b|\bplus\b/i)) {
    const row = part.trim() ? namedInWords(rows, part) : undefined;
    if (row) out.push({ part, row });
  }
  return out;
}

function isIdList(schema: z.ZodType): boolean {
  try {
    const json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as {
      type?: unknown;
      items?: { type?: unknown; enum?: unknown };
    };
    return json.type === "array" && json.items?.type === "string" && !json.items.enum;
  } catch {
    return false;
  }
}
