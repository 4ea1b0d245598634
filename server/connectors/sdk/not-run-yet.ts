import type { BackendOutcome } from "./browse-backend";
import { code, escapeText } from "./markdown";
import { shownCandidates } from "./shown-candidates";
import { USER_WORDS } from "./user-words-field";

/** What a capability form's submit carried: whether the form takes the user's words, and whether they came. */
export interface SubmittedWords {
  /** The words decide whether the change runs at once (no person must approve it). */
  words: boolean;
  /** What the form's words do (user-words-field.ts), to show the field again. */
  use?: "runs" | "fills" | null;
  said: boolean;
  /** The form that was submitted: the one call that runs the change resends it with the words. */
  form?: string;
  /** The listing of the records the form's change applies to: where the ones not listed are. */
  listing?: string;
}

/**
 * A change that is complete and waits only for the agent's own confirm (no person approves it):
 * it did not run at its start because its record was the agent's pick among several, the caller's
 * confirm needs a permission, or a default the user did not choose holds it.
 */
export function waitsForConfirm(outcome: BackendOutcome): boolean {
  const none = (v: unknown) => !Array.isArray(v) || v.length === 0;
  return (
    outcome.outcome === "applied" &&
    outcome.status === "open" &&
    outcome.requires_confirmation === true &&
    none(outcome.missing) &&
    none(outcome.validation_errors) &&
    (outcome.next_actions ?? []).some((n) => n.tool === "confirm_action" && !n.requires_user_approval)
  );
}

/**
 * Why such a change did not run, in one line, and the one call that runs it: a model read "ready
 * to confirm" after a form's submit, then the whole action again, before its confirm_action.
 * The why is the engine's own (the records the change fits, to ask the user about).
 */
export function notRunYet(outcome: BackendOutcome, actionId: string, submitted?: SubmittedWords): string {
  const ask = outcome.ask_user as
    | { message?: unknown; candidates?: unknown; record?: unknown; others?: unknown }
    | undefined;
  const why =
    typeof ask?.message === "string"
      ? escapeText(ask.message)
      : "it is ready, and runs when this agent confirms it";
  // The record sent and a few others to ask the user by; the rest counted, with where they are.
  const shown = shownCandidates(ask);
  const candidates = shown.lines.map((c) => `- ${escapeText(c)}`);
  if (shown.more)
    candidates.push(
      `- and ${shown.more} more${submitted?.listing ? `, among the records at ${code(submitted.listing)}` : ""}`,
    );
  const call = `confirm_action ${JSON.stringify({ action_id: actionId, version: outcome.version, idempotency_key: "<a new key>" })}`;
  const confirm = `One call runs it: ${code(call)} (or submit ${code(`actions://${actionId}/confirm`)} with \`idempotency_key\`).`;
  // A form that takes the user's words got none, where they decide: the one-call fix first (round
  // with Sam: "set the kettle refund ticket to high priority" named it by subject, yet the model,
  // told only to ask the user, asked and confirmed: two calls and a question more). The re-submit
  // takes this held action's place (the gateway's replace-held.ts): said, so no model cancels it.
  if (submitted?.words && !submitted.said && typeof ask?.message === "string") {
    const record =
      typeof ask.record === "string" && ask.record ? `name ${escapeText(ask.record)}` : "name this record";
    const form = submitted.form ? `submit ${code(submitted.form)} again` : "submit the form again";
    // No words came, so none were read: the others the change fits are only counted, with where
    // they are (set AI: the list of three unrelated tickets made a 500-token answer to a slip).
    const others = typeof ask.others === "number" && ask.others > 0 ? ask.others : 0;
    const where = others
      ? ` (${others} other ${others === 1 ? "record" : "records"} would take this change too${submitted.listing ? `, at ${code(submitted.listing)}` : ""})`
      : "";
    const whom = typeof ask.record === "string" && ask.record ? escapeText(ask.record) : "this record";
    return [
      `**Not run yet:** no \`${USER_WORDS}\` came with it. If the user's words ${record}, ${form} with the same fields and \`${USER_WORDS}\`: their request, verbatim; it then runs at once and replaces this one.`,
      `Otherwise ask the user whether they mean ${whom}${where}; on their word, ${confirm.charAt(0).toLowerCase()}${confirm.slice(1)}`,
    ].join("\n");
  }
  return [`**Not run yet:** ${why}`, ...candidates, confirm].join("\n");
}
