import type { AnyCapability } from "../connectors/sdk/define-capability";
import type { ValidationError } from "../connectors/sdk/outcome";
import { choicesFor } from "./choice-words";
import { canTake } from "./described-records";
import type { Evaluation } from "./evaluate-action";
import { present } from "./present-value";

/**
 * What a start stopped at its record node says when not one record offered there can take the
 * change (every option ineligible): the one offered record is to be judged by its own checks (its
 * refusal names what is possible instead), several are refused in one line, counted by state.
 * Played: "needs <record field> (9 offered)" where all nine were paid or cancelled
 * left an open action the model had to cancel; a record refused by its words' fit alone hid the
 * capability its own check names.
 */
export function noneCanTake(
  capability: AnyCapability,
  ev: Evaluation,
  request: string,
): { only: string } | { refused: ValidationError } | undefined {
  const field = capability.appliesTo.field;
  if (!field || present(ev.values[field])) return undefined;
  const stopped = ev.missing.includes(field) || ev.errors.some((e) => e.field === field);
  if (!stopped || ev.errors.some((e) => e.field !== field)) return undefined;
  const rows = choicesFor(field, ev.options);
  if (!rows.length || rows.some(canTake(capability, rows, request))) return undefined;
  if (rows.length === 1 && rows[0]) return { only: rows[0].value };
  const noun = capability.appliesTo.entity.toLowerCase();
  const counts = new Map<string, number>();
  for (const r of rows) {
    const state = typeof r.row.status === "string" ? r.row.status.replace(/_/g, " ") : "not open to it";
    counts.set(state, (counts.get(state) ?? 0) + 1);
  }
  const byState = [...counts].map(([state, n]) => `${n} ${state}`).join(" · ");
  // Words that narrowed the offer say so: the other records were not looked at for this.
  const whose = ev.errors.length
    ? `the ${rows.length} ${noun}s the user's words fit`
    : `your ${rows.length} ${noun}s`;
  return {
    refused: {
      field,
      code: "none_possible",
      message: `none of ${whose} can take this now: ${byState}; tell the user`,
      refused: true,
    },
  };
}
