import { SHOWN_KEY } from "../connectors/sdk/decision-summary";
import { REQUEST_NOTE } from "../connectors/sdk/request-note";
import type { Evaluation } from "./evaluate-action";

/** A field the action filled from its own default, with the other values its choices offered. */
export type Defaulted = { value: unknown; choices?: unknown[]; rule?: string };

/**
 * The fields this evaluation filled from a node's default — not from the user's words, not from
 * the agent's patch — each with the list of choices offered for it (`options.field_of` names the
 * list), so the answer can say "<field>: <value> (default; other choices: …)" and the agent can
 * ask the user. Round 4: a checkout summary showed a shipping method the user never named, and
 * nothing told the agent it was a default.
 */
export function defaultedFields(ev: Evaluation): Record<string, Defaulted> | undefined {
  const fieldOf = (ev.options.field_of ?? {}) as Record<string, string>;
  const out: Record<string, Defaulted> = {};
  for (const [field, value] of Object.entries(ev.defaulted)) {
    if (field in ev.fromWords) continue;
    const list = Object.entries(fieldOf).find(([k, f]) => f === field && Array.isArray(ev.options[k]))?.[0];
    // A yes/no default's other choice is the other answer (`internal`: true).
    const choices = list
      ? (ev.options[list] as unknown[])
      : typeof value === "boolean"
        ? [!value]
        : undefined;
    const rule = ev.defaultRules?.[field];
    out[field] = { value, ...(choices ? { choices } : {}), ...(rule ? { rule } : {}) };
  }
  return Object.keys(out).length ? out : undefined;
}

/** `{ defaulted }` for an answer, or nothing when no default was applied. */
export function withDefaulted(ev: Evaluation): { defaulted?: Record<string, Defaulted> } {
  const defaulted = defaultedFields(ev);
  return defaulted ? { defaulted } : {};
}

/** The fields this evaluation filled from a default the user's words did not override. */
export function defaultedNames(ev: Evaluation): string[] {
  return Object.keys(ev.defaulted).filter((f) => !(f in ev.fromWords));
}

/** What the person's screen says beside a value the action chose itself. */
export const DEFAULT_NOTE = "default: the user did not choose it";

/**
 * The summary with each top-level entry that shows a defaulted field (its key is the field's
 * name, as in what is sent) marked on every surface the one renderer draws: the console's
 * confirm page, the MCP App, the approver's email and the agent's text. Round 7: "Visible to:
 * shown to the customer" read as the user's choice.
 */
export function markDefaultsShown(
  summary: Record<string, unknown>,
  fields: string[],
  note: string = DEFAULT_NOTE,
): Record<string, unknown> {
  const shown = summary[SHOWN_KEY] as { entries?: Array<{ key: string; note?: string }> } | undefined;
  if (!fields.length || !Array.isArray(shown?.entries)) return summary;
  const entries = shown.entries.map((e) =>
    fields.includes(e.key) ? { ...e, note: e.note ? `${e.note}; ${note}` : note } : e,
  );
  return { ...summary, [SHOWN_KEY]: { ...shown, entries } };
}

/**
 * The summary as the action shows it: defaults marked as defaults, and a reason filled with the
 * user's request marked as taken from it (the person approving sees it was not a reason given).
 */
export function markedSummary(
  summary: Record<string, unknown>,
  marks: { defaulted?: string[]; fromRequest?: string[] },
): Record<string, unknown> {
  return markDefaultsShown(
    markDefaultsShown(summary, marks.defaulted ?? []),
    marks.fromRequest ?? [],
    REQUEST_NOTE,
  );
}

/**
 * Why a change nobody approves does not run in the call that made it ready without the agent's
 * key: a field the user did not choose was filled by its default. Run at once, the default would
 * be applied before anyone could ask the user (played, issue 23: a comment went to the customer
 * as "shown to the customer" by default, and the line saying so came after it was posted). The
 * agent asks, then confirms (or sets the field); its own key still means "run it now".
 */
export function defaultsHold(ev: Evaluation): string | null {
  const names = defaultedNames(ev);
  return names.length
    ? `; it needs no approval, but ${names.join(", ")} ${names.length === 1 ? "is a default" : "are defaults"} the user did not choose: ask them if it matters, then confirm_action runs it (or set it with advance_action)`
    : null;
}
