import type { z } from "zod";
import type { AnyCapability } from "../connectors/sdk/define-capability";
import { money } from "../connectors/sdk/markdown";
import type { ValidationError } from "../connectors/sdk/outcome";
import { countOfWord } from "../number-words";
import type { ChoiceRow } from "./choice-words";
import { idListParts } from "./id-list-words";

/** Where a line says how many it holds, the most usual first. */
const QUANTITY_KEYS = ["quantity", "qty", "count"];

/** How many a line holds, where its row says (`quantity`), else undefined. */
export function lineHolds(row: ChoiceRow): number | undefined {
  for (const key of QUANTITY_KEYS) {
    const n = row.row[key];
    if (typeof n === "number" && Number.isInteger(n) && n > 0) return n;
  }
  return undefined;
}

/** A line as people read it: "Signpost Mug ×2 ($36.00)", its money keys as money. */
export function lineText(row: ChoiceRow, capability: AnyCapability): string {
  const name = row.row.name ?? row.row.label ?? row.row.title ?? row.value;
  const holds = lineHolds(row);
  const keys = capability.money?.keys ?? [];
  // The line's money as a whole (what goes with it), not a price per unit.
  const key = Object.keys(row.row).find(
    (k) => keys.includes(k) && !k.startsWith("unit") && typeof row.row[k] === "number",
  );
  const amount = key ? ` (${money(row.row[key], capability.money?.currency)})` : "";
  return `${String(name)}${holds ? ` ×${holds}` : ""}${amount}`;
}

/** What the system says of a field's whole lines (the node's `wholeLines`), or the plain rule. */
export function wholeLinesRule(capability: AnyCapability, field: string): string {
  const declared = capability.nodes.find((n) => n.fields?.[field])?.wholeLines?.[field];
  return declared ?? `${field} takes whole lines`;
}

/**
 * How many of a thing a part of the ask counts, where it says: "one of the two mugs" 1, "a single
 * mug" 1, "3 mugs" 3; "the mugs", "both", "a mug" none ("a" is how English names a thing, not a
 * count: "I want a refund for the mugs").
 */
function counted(part: string): number | undefined {
  // What follows a clause's break says why, not how many ("the mugs — one arrived cracked",
  // "both mugs since one is cracked": review 63c stopped both as asking for one).
  const asked = part.toLowerCase().split(CLAUSE_BREAK)[0] ?? "";
  const words = asked.match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const w of words) {
    if (WHOLE.has(w)) return undefined;
    if (w === "single") return 1;
    if (w === "a" || w === "an") continue;
    const n = countOfWord(w);
    if (n) return n;
  }
  return undefined;
}

/** Words that take every one of a line: a count after them is no part of it. */
const WHOLE = new Set(["both", "all", "every", "each"]);

/** Where the words that say which and how many end: a dash, or a word opening why or which. */
const CLAUSE_BREAK = /\s[—–-]\s|\b(?:since|because|as|but|though|although|which|that|who|i|we)\b/;

/**
 * Words that count fewer of a line than it holds, for a list-of-ids field whose ids take whole
 * lines ("return one of the two mugs", and the mug line holds 2): a typed stop naming the field,
 * with what the line holds and its amount, and that no part of a line can be chosen, so the agent
 * asks the user before anything is taken. Played (issue 23): the draft showed `item_ids:
 * [string]`; the model learnt both mugs ($36.00) would go back only on the approval summary, then
 * spent three dry runs looking for a quantity field. Undefined when no part counts less.
 */
export function partialLineInWords(
  capability: AnyCapability,
  field: string,
  schema: z.ZodType,
  options: Record<string, unknown>,
  request: string,
): ValidationError | undefined {
  const partial = partialLine(capability, field, schema, options, request);
  return partial && wholeLinesStop(capability, field, partial);
}

/**
 * The same stop for a list the agent sent itself beside the user's words, where the line the
 * words count fewer of is among the ids it sent. Set CC: "Return one of the mugs from my kettle
 * order" submitted with `item_ids` naming the two-mug line asked for evidence first; the
 * summary then said "Signpost Mug ×2 $36.00", and the model read the whole action (1,195 tokens)
 * before cancelling. Only at a start (the request is the start's words): an advance that sends
 * the line after the user said yes is never stopped again.
 */
export function partialLineSent(
  capability: AnyCapability,
  fields: Record<string, z.ZodType>,
  sent: Record<string, unknown>,
  options: Record<string, unknown>,
  request: string,
): ValidationError | undefined {
  for (const [field, schema] of Object.entries(fields)) {
    const ids = sent[field];
    if (!Array.isArray(ids) || !ids.length) continue;
    const partial = partialLine(capability, field, schema, options, request);
    if (partial && ids.includes(partial.row.value)) return wholeLinesStop(capability, field, partial);
  }
  return undefined;
}

/** The line a part of the ask counts fewer of than it holds, with both counts; undefined when none. */
function partialLine(
  capability: AnyCapability,
  field: string,
  schema: z.ZodType,
  options: Record<string, unknown>,
  request: string,
): { row: ChoiceRow; asked: number; holds: number } | undefined {
  const parts = idListParts(field, schema, options, request, capability.appliesTo.entity) ?? [];
  for (const { part, row } of parts) {
    const holds = lineHolds(row);
    const asked = counted(part);
    if (holds && asked && asked < holds) return { row, asked, holds };
  }
  return undefined;
}

function wholeLinesStop(
  capability: AnyCapability,
  field: string,
  { row, asked, holds }: { row: ChoiceRow; asked: number; holds: number },
): ValidationError {
  return {
    field,
    code: "whole_lines_only",
    message: `${wholeLinesRule(capability, field)}: ${row.value} is ${lineText(row, capability)} and goes whole or not at all; the user's words ask for ${asked} of ${holds}, and no part of a line can be chosen: ask the user whether the whole line should go (${field}: ["${row.value}"])`,
  };
}
