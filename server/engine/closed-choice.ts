import type { ZodType } from "zod";
import type { AnyCapability, Values } from "../connectors/sdk/define-capability";
import type { ValidationError } from "../connectors/sdk/outcome";
import { type ChoiceRow, candidateText, choicesFor, openTo } from "./choice-words";
import { valueWordsOf } from "./value-words";

/**
 * A row the node says can be taken now: its verdict allows it and it is not marked ineligible
 * (set AR: a shipping refund "not eligible" on an order owed none left its start open, to be
 * cancelled, where a sold-out size ended its start).
 */
const takeable = (r: ChoiceRow) => openTo(r) && r.row.eligible !== false;

/** How many choices that can be taken a refusal names (the node's list has them all). */
const NAMED = 8;

/**
 * A node's errors, where one refuses a value that is one of the node's own choices whose row says
 * it cannot be taken (`possible: "out of stock"`): that error also names the choices that can
 * be, and is marked `choice_closed`. Played: "Logo Tee (XL) is out of stock" beside a list
 * showing `in_stock: false` left the model unsure the size was refused and which were left;
 * it took a dry run and a cancel to find out. Works from the rows the node offers, so for every
 * connector that marks its rows' verdicts.
 */
export function withClosedChoices(
  capability: Pick<AnyCapability, "nodes">,
  fields: Record<string, ZodType>,
  options: Record<string, unknown>,
  values: Values,
  errors: ValidationError[],
): ValidationError[] {
  return errors.map((e) => {
    const field = e.field;
    const value = values[field];
    if (e.refused || e.choice_closed || typeof value !== "string" || !fields[field]) return e;
    const rows = choicesFor(field, options, undefined, valueWordsOf(capability, field));
    const chosen = rows.find((r) => r.value === value);
    if (!chosen || takeable(chosen)) return e;
    const open = rows.filter(takeable);
    // The node's own message may already say what is possible ("Possible now: refund_only").
    if (open.length && open.every((r) => namesValue(e.message, r.value)))
      return { ...e, choice_closed: true };
    const instead = open.length
      ? `can be taken instead: ${open.slice(0, NAMED).map(candidateText).join(", ")}${open.length > NAMED ? ` and ${open.length - NAMED} more` : ""}; ask the user which`
      : "none of the choices can be taken now; tell the user";
    return { ...e, message: `${e.message}; ${instead}`, choice_closed: true };
  });
}

/** Whether a message names a value as a whole word ("Possible now: refund_only"), not inside another. */
function namesValue(message: string, value: string): boolean {
  return message.split(/[^\w-]+/).includes(value);
}
