import type { ValidationError } from "../connectors/sdk/outcome";
import type { ChoiceRow } from "./choice-words";
import type { Described } from "./described-records";
import { cannot } from "./why-picked";

/**
 * What the user's words left unanswered: records they describe by what they are (several, or
 * only ones that cannot take the change), or by age ("the oldest open shipping ticket"): the one
 * record they name that way (`record`) when it cannot take the change, the records as old at the
 * asked end (`tied`), or none when no record says those words.
 */
export type Unanswered =
  | Exclude<Described, { kind: "one" }>
  | { kind: "aged"; said: string; record?: ChoiceRow; tied?: ChoiceRow[] };

/** How many records that cannot take the change are named, each with why; the rest are counted. */
const NAMED_CANNOT = 3;

/**
 * The one answer to words that describe records without naming one that can take the change:
 * the records they fit that can (to ask the user which), and those that cannot, each with its own
 * verdict read one way (`cannot()`), whether the words asked by age or by description. Typed, so
 * the agent asks or tells the user rather than picks; `narrow` keeps the offer to the records the
 * description fits. Played (issue 23): "no ticket that can take this fits 'oldest open shipping
 * ticket'" hid that the oldest open shipping ticket is already urgent; and two builders cut the
 * same row's verdict two ways ("the invoice is paid" beside "the invoice is paid; reminders go …
 * at").
 */
export function describedAnswer(
  field: string,
  entity: string,
  found: Unanswered,
): { ambiguous: ValidationError; narrow?: string[] } {
  const noun = entity.toLowerCase();
  const next = `tell the user, or send ${field}`;
  if (found.kind === "aged") {
    // The user meant this record: said with its verdict, never another offered in its place.
    const { record, tied } = found;
    if (tied?.length)
      return {
        ambiguous: {
          field,
          code: "ambiguous_choice",
          message: `the ${found.said} is one of ${tied.length} as old: ${tied
            .slice(0, 5)
            .map((r) => r.value)
            .join(", ")}; ask the user which one`,
        },
      };
    return {
      ambiguous: record
        ? {
            field,
            code: "not_possible",
            message: `the ${found.said} is ${record.value}, and cannot take this: ${cannot(record) ?? "not open to this change"}; tell the user`,
          }
        : { field, code: "no_match", message: `no ${noun} fits "${found.said}"; ${next}` },
    };
  }
  const left = found.closed.length - NAMED_CANNOT;
  const more = left > 0 ? `; ${left} more` : "";
  const words = `the user's words (${found.words.join(", ")})`;
  const closed = `${found.closed
    .slice(0, NAMED_CANNOT)
    .map(
      (r) => `${r.value} fits${found.kind === "several" ? " too" : ""} but ${cannot(r) ?? "cannot take it"}`,
    )
    .join("; ")}${more}`;
  if (found.kind === "closed")
    return {
      ambiguous: {
        field,
        code: "no_match",
        message: `no ${noun} that can take this fits ${words}: ${closed}; ${next}`,
      },
      narrow: found.closed.map((r) => r.value),
    };
  const unsaid = found.unsaid.length
    ? `${found.unsaid.map((w) => `"${w}"`).join(", ")} fits no ${noun}; `
    : "";
  const n = found.choices.length;
  // Words that only say what the record is not ("not shipped"), where some row does not state
  // that event (record-events.ts), rule rows out only by what the rows say: said as what they
  // leave, each to be checked, never as records that fit (round 12: both players read "fit 5
  // orders" with three delivered ones as wrong). Where every row states it, they fit.
  const onlyNot = found.kind === "several" && !found.stated && found.words.every((w) => w.startsWith("not "));
  const verb = onlyNot ? (n === 1 ? "leaves" : "leave") : n === 1 ? "fits" : "fit";
  const fit = `${verb} ${n} ${noun}${n === 1 ? "" : "s"} that can take this${onlyNot ? " (check each one's state)" : ""}: ${found.choices
    .slice(0, 10)
    .map((r) => r.value)
    .join(", ")}`;
  return {
    ambiguous: {
      field,
      code: "ambiguous_choice",
      message: `${unsaid}${words} ${fit}${found.closed.length ? `; ${closed}` : ""}; ask the user which one`,
    },
    narrow: found.choices.map((r) => r.value),
  };
}
