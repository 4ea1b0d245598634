import type { AnyCapability } from "../connectors/sdk/define-capability";
import type { ValidationError } from "../connectors/sdk/outcome";
import { type ChoiceRow, choicesFor } from "./choice-words";
import { canTake } from "./described-records";
import type { Evaluation } from "./evaluate-action";
import { present } from "./present-value";

/**
 * What a start stopped at its record node says when not one record offered there can take the
 * change (every option ineligible): the one offered record is to be judged by its own checks (its
 * refusal names what is possible instead), several are refused in one line saying why (refusedWhy).
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
  const why = refusedWhy(capability, rows);
  // Words that narrowed the offer say so: the other records were not looked at for this.
  const whose = ev.errors.length
    ? `the ${rows.length} ${noun}s the user's words fit`
    : `your ${rows.length} ${noun}s`;
  return {
    refused: {
      field,
      code: "none_possible",
      message: `none of ${whose} can take this now: ${why}; tell the user`,
      refused: true,
    },
  };
}

/**
 * Why the records were refused, in a few words: their one shared reason in its own words ("both
 * already addressed to Office"); else counted per reason, where a reason that only restates a record's
 * state ("The order has already been delivered") is said by that state ("4 delivered") and any
 * other in its words ("2 already addressed to Office · 1 cancelled"). Played (issue 23): "1 pending
 * payment · 1 paid" for two orders that both already went to the asked address left the model to
 * guess why, and it re-read them.
 */
function refusedWhy(capability: AnyCapability, rows: ChoiceRow[]): string {
  const offers = fixedValues(capability);
  const reasonOf = (r: ChoiceRow): string | undefined => {
    const verdict = r.row.possible;
    if (typeof verdict !== "string" || verdict === "yes") return undefined;
    // A verdict listing the values it is open to ("exchange") says which, not a reason.
    const listed = verdict.split(/,\s*/);
    if (listed.every((v) => offers.has(v))) return `open only to ${verdict}`;
    // The record's own id in it ("Order ord_1 is cancelled") would set each apart.
    return lowerFirst(verdict.replace(r.value, "").replace(/\s+/g, " ").trim());
  };
  const stateOf = (r: ChoiceRow) =>
    typeof r.row.status === "string" ? r.row.status.replace(/_/g, " ") : "not open to it";
  const reasons = rows.map(reasonOf);
  const [first] = reasons;
  if (first && reasons.every((x) => x === first)) {
    const all = rows.length === 2 ? "both" : `all ${rows.length}`;
    // One state that the reason restates is said as the state ("both closed").
    const states = new Set(rows.map(stateOf));
    const [state = ""] = states;
    if (states.size === 1 && restates(first, state)) return `${all} ${state}`;
    // "both already addressed to Office"; a reason with its own subject after a colon.
    return /^(?:the|a|an|this|that|it|its)\b/i.test(first) ? `${all}: ${first}` : `${all} ${first}`;
  }
  const counts = new Map<string, number>();
  rows.forEach((r, i) => {
    const reason = reasons[i];
    const state = stateOf(r);
    const label = !reason || restates(reason, state) ? state : reason;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  });
  return [...counts].map(([label, n]) => `${n} ${label}`).join(" · ");
}

/** A reason naming the record's state ("has already shipped" of a shipped order) says no more than it. */
function restates(reason: string, state: string): boolean {
  const word = (state.split(/[\s,]+/)[0] ?? "").replace(/[^\p{L}\p{N}]/gu, "");
  return word.length > 2 && new RegExp(`\\b${word}\\b`, "iu").test(reason);
}

/** Every fixed value a field of the capability takes (a kind, a method): what a verdict may list. */
function fixedValues(capability: AnyCapability): Set<string> {
  const out = new Set<string>();
  for (const node of capability.nodes)
    for (const [field, schema] of Object.entries(node.fields ?? {}))
      for (const r of choicesFor(field, {}, schema)) out.add(r.value);
  return out;
}

function lowerFirst(text: string): string {
  // "The order is cancelled" → "the order is cancelled"; an id or a name keeps its capital.
  return /^[A-Z][a-z]/.test(text) ? `${text[0]?.toLowerCase()}${text.slice(1)}` : text;
}
