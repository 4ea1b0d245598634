import { doneWith } from "./done-with";
import { code, escapeText } from "./markdown";

type Json = Record<string, unknown>;

// The other asks of the user's words as every face says them (the gateway reads them on a start
// with words): those this same call ran, those not done, and those left with their one call. The
// words are the user's echoed back: each on one line, inert.

/**
 * The asks of the user's words that no capability does, or whose capability cannot take their
 * record now (gateway other-asks.ts), or that a refused start ended before (`unread`: its later
 * steps may have taken them, "express to my home"), or that name a field only another capability
 * takes (`taken_by`, gateway fields-elsewhere.ts: "use a coupon" of a payment): said as not done,
 * so an answer that ends its flow never reads as the whole request done.
 */
export function notDoneLines(result: Json): string[] {
  const asks = Array.isArray(result.also_asked) ? (result.also_asked as Json[]) : [];
  return asks
    .filter((a) => typeof a.words === "string" && (!a.capability || a.not_now))
    .map((a) =>
      typeof a.taken_by === "string"
        ? `not done: "${escapeText(a.words as string)}" — ${takenElsewhere(String(result.capability), a)}`
        : a.capability && typeof a.why === "string"
          ? `not done: "${escapeText(a.words)}" (${escapeText(String(a.capability))}: ${escapeText(a.why)}${/\b(ask|tell) the user\b/.test(a.why) ? "" : "; tell the user"})`
          : a.capability
            ? `not done: "${escapeText(a.words)}" (${escapeText(String(a.capability))} cannot take ${escapeText(String(a.entity_id))} now; tell the user)`
            : a.unread
              ? `not done: "${escapeText(a.words)}" (the start ended before it)`
              : `not done: "${escapeText(a.words)}" (no capability does it; tell the user)`,
    );
}

/** Why a field the words name is not done by this capability: "pay_order takes no coupon_code (only checkout does, …)". */
export function takenElsewhere(
  capability: string,
  a: { field?: unknown; taken_by?: unknown; new_record?: unknown },
): string {
  return `${escapeText(capability)} takes no ${escapeText(String(a.field))} (only ${escapeText(String(a.taken_by))} does${a.new_record ? `, when it makes a new ${escapeText(String(a.new_record))}` : ""})`;
}

/**
 * The other asks of the user's words this same call ran (gateway other-asks-run.ts), each on one
 * line: the words, the action that did them and how it ended, so the answer says the whole
 * request's outcome and no call is left to make for them.
 */
export function alsoDoneLines(result: Json): string[] {
  const done = Array.isArray(result.also_done) ? (result.also_done as Json[]) : [];
  return done
    .filter((d) => typeof d.words === "string")
    .map((d) => {
      if (typeof d.action_id !== "string")
        return `${escapeText(String(d.status))}: "${escapeText(d.words as string)}" → ${escapeText(String(d.capability))}: ${escapeText(String(d.message ?? ""))}; nothing to change`;
      const message = String(d.message ?? "");
      // Done with what (the summary's values taken), which "done (id)" does not say.
      const what = d.status === "completed" && d.summary ? doneWith(d.summary, message) : null;
      return `also ${d.status === "completed" ? "done" : escapeText(String(d.status))}: "${escapeText(d.words as string)}" → ${escapeText(String(d.capability))} ${code(d.action_id)}: ${escapeText(message)}${what ? `; ${escapeText(what)}` : ""}`;
    });
}

/**
 * The asks left with their one call (a start of their capability on their record), as a face with
 * no next-steps list of its own says them (a browse page): the call written whole, to be copied.
 */
export function alsoAskedLines(result: Json): string[] {
  const next = Array.isArray(result.next_actions) ? (result.next_actions as Json[]) : [];
  return next
    .filter((n) => typeof n.description === "string" && n.description.startsWith("also asked: "))
    .map(
      (n) => `${escapeText(n.description as string)} → ${escapeText(String(n.tool))} ${code(n.args ?? {})}`,
    );
}
