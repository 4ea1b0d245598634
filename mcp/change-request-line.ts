import { queryClauses } from "@/server/engine/query-clauses";
import { asksOnlyToRead } from "@/server/engine/top-match";
import { capabilityIndex } from "@/server/gateway/operations/capability-index";
import { onlyAsks } from "./question-read";

/** Openers before a request's verb ("please buy …", "just pay …"). */
const OPENERS = new Set(["please", "now", "just", "kindly"]);

/**
 * What an imperative's object opens with: a determiner, a possessive, a pronoun, a number. Else a
 * record's id or a name (capitalized as written): "buy Widget and gadget", "assign tkt_2 to Sara".
 * A noun's next word is none of these ("return policy", "status of tkt_2").
 */
const OBJECT_OPENERS = new Set(
  "a an the my our your his her their its this these those it them me us all both every each some one two three".split(
    " ",
  ),
);

/** Said above a search whose words ask for a change, where the caller has the action face. */
export const CHANGE_REQUEST_LINE =
  "These words ask for a change, and search only reads: start_action with the user's words as `intent` does it from them alone.";

/**
 * Whether a search's words ask for a change rather than to read: no question, no find or show,
 * and the verb their first ask opens with is, alone, the best match of the same capability the
 * whole words match best ("buy a widget and a gadget …, pay by card": the purchase both ways;
 * "items opened by Alice" opens with no capability's verb). Only a classifier of the words:
 * nothing is named or started, so what the caller may use is not read here. Set Q: a purchase's
 * words sent to search opened a listing filtered by "card"; the model then searched the
 * capabilities and started: two calls a start by the words makes alone.
 */
export function asksForChange(query: string): boolean {
  if (onlyAsks(query) || asksOnlyToRead(query)) return false;
  const first = queryClauses(query.toLowerCase()).find((c) => c.role === "request");
  const verb = (first?.text.match(/\p{L}+/gu) ?? []).find((w) => !OPENERS.has(w));
  if (!verb || !opensObject(query, verb)) return false;
  const usable = (h: { read?: true; topic_only?: true; off_topic?: true } | undefined) =>
    !!h && !h.read && !h.topic_only && !h.off_topic;
  const whole = capabilityIndex().search(query, 1)[0];
  const alone = capabilityIndex().search(verb, 1)[0];
  return usable(whole) && usable(alone) && whole?.capability === alone?.capability;
}

/** Whether the word after `verb` (its first use in `query`, as written) opens an object. */
function opensObject(query: string, verb: string): boolean {
  const written = query.match(/[\p{L}\p{N}_]+/gu) ?? [];
  const at = written.findIndex((w) => w.toLowerCase() === verb);
  const next = at < 0 ? undefined : written[at + 1];
  // "exchanges I made": a plural (or a verb's -s) before a subject is a noun; "I" is no name.
  if (!next || (/[^s]s$/.test(verb) && next === "I")) return false;
  return OBJECT_OPENERS.has(next.toLowerCase()) || /\d/.test(next) || (next !== "I" && /^\p{Lu}/u.test(next));
}
