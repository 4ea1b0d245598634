// stays-whole: the one text renderer of every action answer, read top to bottom in the order it prints.

import { asksMore, optInChoiceLines, paidChoiceLines } from "@/server/connectors/sdk/choice-lines";
import { doneWith } from "@/server/connectors/sdk/done-with";
import { fromWordsLine } from "@/server/connectors/sdk/from-words-line";
import { moneyRenderer } from "@/server/connectors/sdk/money-renderer";
import { alsoDoneLines, notDoneLines } from "@/server/connectors/sdk/other-asks-lines";
import { ENDED_STATUSES } from "@/server/connectors/sdk/outcome";
import { outcomeHeadline } from "@/server/connectors/sdk/outcome-headline";
import { readApproval } from "@/server/connectors/sdk/read-approval";
import { saysWord } from "@/server/connectors/sdk/says-word";
import { shownCandidates } from "@/server/connectors/sdk/shown-candidates";
import { verdictText } from "@/server/connectors/sdk/verdict-text";
import { isTimestamp, whenText } from "@/server/connectors/sdk/when-text";
import { agentSummaryLines } from "./agent-summary";
import { defaultedLine } from "./defaulted-text";
import { laterLine } from "./later-text";
import { nextLine } from "./next-lines";
import type { OutcomeLike } from "./outcome-output";

type Json = Record<string, unknown>;

/** Fields the header, the fixed sections or nothing at all render (patch_schema is for code). */
const RENDERED = new Set([
  "outcome",
  "message",
  "retryable",
  "reason",
  "action_id",
  "version",
  "node",
  "status",
  "capability",
  "entity",
  "applied",
  "missing",
  "pending",
  "allowed_patch",
  "validation_errors",
  "requires_confirmation",
  "requires_approval",
  "summary",
  "approval",
  "approval_url",
  "effect",
  "external_id",
  "inputs",
  "options",
  "options_unchanged",
  "money_of",
  "results",
  // Named in structuredContent for a client that wants them; the pick was a clear best.
  "other_matches",
  "next_actions",
  "patch_schema",
  "field_shapes",
  "from_words",
  "why_picked",
  "renamed",
  "defaulted",
  "paid_choices",
  "opt_in_choices",
  "ask_user",
  "later",
  // A resent request's first action: the message says which and when.
  "same_request",
  // Each other ask is a next line, or a "not done" line; one this call ran, an "also done" line.
  "also_asked",
  "also_done",
]);

/** How many entries of a list the text shows: ten answer most questions whole. */
const LIST_CUT = 10;

const isEmpty = (v: unknown) =>
  v === null ||
  v === undefined ||
  v === "" ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === "object" && !Array.isArray(v) && Object.keys(v as Json).length === 0);

const withoutKey = (o: Json, key: string): Json =>
  Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

function scalar(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v))
    return v.every((x) => typeof x !== "object" || x === null) ? v.join(", ") : `${v.length} entries`;
  if (v && typeof v === "object") {
    const o = v as Json;
    // {value, label}: what the person reads, and the value to send.
    if (typeof o.label === "string" && "value" in o && Object.keys(o).length === 2)
      return `${o.label} (${scalar(o.value)})`;
    // A time one level down reads as one at the top (`dates: paid 2026-12-02, 3 days ago; …`):
    // its own comma then asks for another separator between the parts.
    const parts = Object.entries(o).filter(([, x]) => !isEmpty(x));
    const timed = parts.some(([, x]) => isTimestamp(x));
    return parts
      .map(([k, x]) => `${k} ${typeof x === "string" ? whenText(x) : scalar(x)}`)
      .join(timed ? "; " : ", ");
  }
  return "";
}

/** Keys whose values say what they are: shown without the key. */
const BARE = new Set(["status", "name", "label", "title", "items", "subject", "message"]);

const FIRST = ["name", "title", "subject", "label", "status", "items"];
const LAST = ["possible", "reason"];
function rank(key: string): number {
  const first = FIRST.indexOf(key);
  if (first >= 0) return first - FIRST.length;
  return LAST.includes(key) ? 1 + LAST.indexOf(key) : 0;
}

const ID_KEYS = ["id", "kind", "code", "method", "type"];

/** The key that names an entry: a known id key, else the first `…_id` one, else `value`. */
function idKeyOf(o: Json): string | undefined {
  const str = (k: string) => typeof o[k] === "string";
  return (
    ID_KEYS.find(str) ??
    Object.keys(o).find((k) => k.endsWith("_id") && str(k)) ??
    (str("value") ? "value" : undefined)
  );
}

/** One entry of a list, its copyable id first, in backticks (never escaped). */
function entryLine(entry: unknown): string {
  if (!entry || typeof entry !== "object") return `- ${scalar(entry)}`;
  const o = entry as Json;
  const idKey = idKeyOf(o);
  // A yes/no choice says so in a word, and its reason's code only where no message words it.
  const verdict = typeof o.eligible === "boolean";
  const rest = Object.entries(o)
    .filter(([k, v]) => k !== idKey && !isEmpty(v) && !(verdict && k === "reason" && !isEmpty(o.message)))
    // A stable order whatever the database did to the stored keys (PostgreSQL's jsonb sorts
    // them): what names the entry first, what can be done with it last.
    .sort(([a], [b]) => rank(a) - rank(b))
    // A record's time with how long ago it was: a model does not know what "today" is.
    .map(([k, v]) =>
      verdict && k === "eligible"
        ? v
          ? "eligible"
          : "not eligible"
        : BARE.has(k)
          ? scalar(v)
          : `${k}: ${typeof v === "string" ? whenText(v) : scalar(v)}`,
    )
    .join(" · ");
  return `- ${idKey ? `\`${o[idKey]}\` ` : ""}${rest}`;
}

/** A named value as compact markdown lines: lists one entry a line, cut with a way to ask for more. */
function section(name: string, value: unknown, more: string, cut = LIST_CUT, order?: string): string[] {
  if (isEmpty(value)) return [];
  if (Array.isArray(value)) {
    if (value.every((x) => typeof x !== "object" || x === null)) return [`${name}: ${value.join(", ")}`];
    const shown = value.slice(0, cut).map(entryLine);
    if (value.length > cut) shown.push(`- … ${value.length - cut} more: ${more}`);
    return [`${name}${order ? ` (${order})` : ""}:`, ...shown];
  }
  if (typeof value === "object") {
    const o = value as Json;
    const flat = Object.values(o).every((x) => typeof x !== "object" || x === null);
    // A yes/no answer in its few words, as pages say it ("no — Not shipped yet …"), not
    // "eligible false, reason order_not_delivered, message Not shipped yet …".
    if (flat) return [`${name}: ${verdictText(o) ?? scalar(o)}`];
    return [
      `${name}:`,
      ...Object.entries(o)
        .filter(([, v]) => !isEmpty(v))
        .flatMap(([k, v]) =>
          Array.isArray(v) && v.some((x) => x && typeof x === "object")
            ? section(`  ${k}`, v, more, cut).map((l, i) => (i === 0 ? l : `  ${l}`))
            : [`  ${k}: ${nestedValue(v)}`],
        ),
    ];
  }
  return [`${name}: ${scalar(value)}`];
}

/**
 * One value of a section's object: a yes/no answer in words, an object of them one per key
 * ("refund_only: yes; exchange: no — …"), a time with how long ago, else the value.
 */
function nestedValue(v: unknown): string {
  const verdict = verdictText(v);
  if (verdict) return verdict;
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const each = Object.entries(v).map(([k, x]) => [k, verdictText(x)] as const);
    if (each.length && each.every(([, t]) => t)) return each.map(([k, t]) => `${k}: ${t}`).join("; ");
  }
  return typeof v === "string" ? whenText(v) : scalar(v);
}

function approvalLine(value: unknown): string | null {
  const a = readApproval(value);
  if (!a) return null;
  if (a.decided_by?.name && a.decided_at)
    return `approval: ${a.status} by ${a.decided_by.name} (${a.decided_by.role}) at ${a.decided_at.slice(11, 16)} UTC${a.reason ? ` — "${a.reason}"` : ""}`;
  return `approval: ${a.status}${a.status === "pending" && a.expires_at ? ` until ${a.expires_at.slice(11, 16)} UTC` : ""}`;
}

/** Matches worth a model's reading: those scoring at least half the best one. */
function strongResults(results: Json[]): Json[] {
  const top = Number(results[0]?.score ?? 0);
  return results.filter((r) => Number(r.score ?? 0) >= top / 2 || r.another_ask === true);
}

/** The best match in full; the others in one line each (id, title, inputs). */
function searchResultLines(all: Json[]): string[] {
  const results = strongResults(all);
  const lines = results.map((r, i) => {
    // The gateway's words for this caller (who approves, or that a key runs it), else the flag.
    const approval =
      typeof r.approval === "string"
        ? r.approval
        : r.requires_approval === "conditional"
          ? `approval: ${r.approval_condition}`
          : `approval: ${r.requires_approval ? "always" : "never"}`;
    // The values of a fixed-set input come with the fields, so the first value sent is a right one.
    const sets = Object.entries((r.input_values ?? {}) as Record<string, string[]>)
      .map(([f, v]) => `; ${f}: ${v.join("|")}`)
      .join("");
    // Asked of the user before the start, with everything else: each choice changes the price.
    const paid =
      Array.isArray(r.user_chooses) && r.user_chooses.length
        ? `; the user chooses (prices differ, never defaulted): ${(r.user_chooses as string[]).join(", ")}`
        : "";
    const optional =
      Array.isArray(r.user_opts_in) && r.user_opts_in.length
        ? `; only on the user's word (optional): ${(r.user_opts_in as string[]).join(", ")}`
        : "";
    // Who sees it or what happens, settled by the words or asked: known before the start.
    const settings = Object.entries((r.set_by_words ?? {}) as Record<string, string>)
      .map(([f, line]) => `; ${f}: ${line}`)
      .join("");
    const inputs = `inputs: ${((r.inputs ?? []) as string[]).join(", ")}${sets}${paid}${optional}${settings}`;
    return i === 0
      ? `${i + 1}. \`${r.capability}\` ${r.title} — ${r.record ? `record: ${r.record}; ` : ""}use: ${r.trigger} ${r.when_not_to_use} ${inputs}; ${approval}`
      : `${i + 1}. \`${r.capability}\` ${r.title}${r.another_ask === true ? " (for another ask of the words)" : ""} — ${inputs}; ${approval}`;
  });
  // Named, not counted: "(4 weaker matches left out)" even under `limit: 5` hid them for good, and
  // a model looking for what does not exist (set I: a ticket moved to a team) could not tell.
  const weaker = all.filter((r) => !results.includes(r)).map((r) => `\`${r.capability}\``);
  if (weaker.length) lines.push(`weaker matches: ${weaker.join(", ")}`);
  return lines;
}

/** Where a flow really ended: a finished action, or an answer that applied (a read, a search). */

/**
 * The text block of every action tool: compact markdown that alone is enough for the next
 * step (what happened, where the action stands, what is missing and the choices for it, the
 * summary to approve and where, validation errors, and each allowed next call with its
 * arguments). `structuredContent` keeps the full typed result.
 */
export function renderOutcomeText(
  result: OutcomeLike & Json,
  options: { listCut?: number; read?: boolean } = {},
): string {
  const cut = options.listCut ?? LIST_CUT;
  // Money as the capability declared it (integer minor units of one currency), never bare.
  const asMoney = moneyRenderer(result.money_of as { keys?: string[]; currency?: string } | undefined);
  const head = outcomeHeadline(result);
  // A read (get_context, search_capabilities) that answered changed nothing: "applied:" before
  // it read as "something was changed" (issue 23). Its message alone; the outcome stays typed in
  // structuredContent, and any other first word (awaiting_approval, not_found…) is kept.
  const lines: string[] = [
    options.read && head === "applied" ? String(result.message) : `${head}: ${result.message}`,
  ];
  const message = String(result.message ?? "");
  const facts: string[] = [];
  if (result.action_id) facts.push(`action \`${result.action_id}\``);
  if (result.version !== undefined) facts.push(`version ${result.version}`);
  // The status where the first line does not already say it ("completed at VERIFIED"). The node
  // is the capability's own name for a step: the message already names the step and the field
  // it needs, and structuredContent keeps it.
  if (typeof result.status === "string" && result.status !== head && !saysWord(message, result.status))
    facts.push(String(result.status));
  if (facts.length) lines.push(facts.join(" · "));
  if (result.reason) lines.push(`reason: ${result.reason}`);
  // The summary in full where the person decides on it (see below), known here so what it says
  // is not said twice.
  const deciding =
    !!result.summary &&
    typeof result.summary === "object" &&
    result.requires_confirmation === true &&
    !result.effect &&
    result.outcome !== "rejected" &&
    result.outcome !== "conflict" &&
    // An ended action is decided on no more: a cancelled change's summary and its "after" never
    // happened (review 66); its headline below names it.
    !ENDED_STATUSES.has(String(result.status));
  const decided = deciding ? agentSummaryLines(result.summary) : [];
  const fromWords = fromWordsLine(result, decided.join("\n"));
  if (fromWords) lines.push(fromWords);
  const renamed = Object.entries((result.renamed ?? {}) as Record<string, string>);
  if (renamed.length)
    lines.push(`taken as named here: ${renamed.map(([field, sent]) => `${sent} as ${field}`).join(", ")}`);
  const defaults = defaultedLine(result.defaulted, asMoney);
  if (defaults) lines.push(defaults);
  const more = result.action_id ? `get_context {"action_id":"${result.action_id}"}` : "see structuredContent";

  // Matches on the topic alone are no way forward (the message says where reading goes instead).
  if (Array.isArray(result.results) && (result.results as Json[]).some((r) => !r.topic_only))
    lines.push(...searchResultLines(result.results as Json[]));
  const missing = Array.isArray(result.missing) ? (result.missing as string[]) : [];
  const errors = Array.isArray(result.validation_errors) ? (result.validation_errors as Json[]) : [];
  // A cancelled or completed action needs nothing more: what it lacked when it ended is history
  // (structuredContent keeps it), not a step.
  const ended = result.status === "cancelled" || result.status === "completed";
  // A record refused for this change (nothing about it can be fixed): what else the flow would
  // need, and the choices that only explain the refusal again, are not the next step. The bench's
  // in-transit refusal was 981 tokens against the wrapper's 381, most of them such lists.
  const refusedOnly = errors.length > 0 && errors.every((e) => e.refused === true);
  // A patch refused for its field names changed nothing: where the action stands is as the last
  // answer said (structuredContent keeps it); the message names the fields and the next call
  // resends the patch (issue 23: 470 characters for "no field adress_id" before).
  const untouched =
    result.outcome === "rejected" &&
    errors.length > 0 &&
    errors.every((e) => e.code === "field_not_allowed" || e.code === "field_locked");
  const asked = !ended && !untouched;
  if (missing.length && !refusedOnly && asked) lines.push(`missing: ${missing.join(", ")}`);
  // A choice that changes what is paid, with every choice and its price: asked once, not guessed.
  const paidChoices = (result.paid_choices ?? {}) as Record<string, { list?: string }>;
  lines.push(...paidChoiceLines(result.paid_choices, asMoney).map((l) => `- ${l}`));
  // An optional choice that changes what is paid (an optional offer): the user's to take, never the agent's.
  const optIn = (result.opt_in_choices ?? {}) as Record<string, { list?: string }>;
  lines.push(
    ...optInChoiceLines(result.opt_in_choices, asMoney, undefined, asksMore(result)).map((l) => `- ${l}`),
  );
  // An error the message already says in full is named, not repeated; one that only names the
  // reason code the answer gave above is not listed again.
  const listed = errors.filter(
    (e) => !(e.code === result.reason && message.includes(String(e.message)) && errors.length === 1),
  );
  if (listed.length && !ended)
    lines.push(
      // A refusal nothing can fix says why, not what to fix (next_actions say what remains).
      errors.every((e) => e.refused === true) || result.status === "refused" ? "why:" : "fix:",
      ...listed.map((e) =>
        message.includes(String(e.message))
          ? `- ${e.field} (${e.code})`
          : `- ${e.field} (${e.code}): ${e.message}`,
      ),
    );
  // Beside the names, on lines of their own: a shape's commas must not read as more field names.
  const shapes = (result.field_shapes ?? {}) as Record<string, string>;
  if (Object.keys(shapes).length && asked)
    lines.push("shapes:", ...Object.entries(shapes).map(([f, s]) => `- ${f}: ${s}`));
  const later = asked ? laterLine(result.later) : null;
  if (later) lines.push(later);
  const pending = Array.isArray(result.pending) ? (result.pending as string[]) : [];
  if (pending.length && asked) lines.push(`kept for later steps: ${pending.join(", ")}`);

  // Choices matter while something is missing or wrong; at the confirmation the summary does.
  const choices = (result.options ?? {}) as Json;
  // A refusal nothing can fix (only other capabilities, or nothing, come next) needs no choices.
  // A dry run shows the choices a real start would (it is asked to answer "which can I…?").
  const fixable =
    result.outcome === "preview" || result.next_actions.some((n) => n.tool === "advance_action");
  const choosing = (missing.length > 0 || errors.length > 0) && fixable && !untouched;
  if (choosing || (result.outcome === "rejected" && fixable && !untouched)) {
    // How each list is ordered (the node says), and how to narrow a longer one: by words of the
    // one meant, which start and advance read through these same choices.
    const orderOf = (choices.order_of ?? {}) as Record<string, string>;
    // Which field each list fills, in its heading: the field's name is what a patch must carry.
    const fieldOf = (choices.field_of ?? {}) as Record<string, string>;
    // A list for a field already set and accepted is not what the agent chooses now: named, not
    // re-listed (structuredContent keeps it; advance_action can still change the field).
    const applied = new Set(Array.isArray(result.applied) ? (result.applied as string[]) : []);
    const wrong = new Set(errors.map((e) => String(e.field).split(/[[.]/)[0]));
    const settled: string[] = [];
    for (const [k, raw] of Object.entries(choices)) {
      if (k === "order_of" || k === "field_of") continue;
      // Listed under `missing` with its prices already.
      if (Object.values({ ...paidChoices, ...optIn }).some((p) => p.list === k)) continue;
      const field = fieldOf[k]?.split(/[[.]/)[0];
      // After a refusal only the list to pick another record from is a way forward.
      if (refusedOnly && !(field && wrong.has(field))) continue;
      if (field && applied.has(field) && !missing.includes(field) && !wrong.has(field)) {
        settled.push(field);
        continue;
      }
      const v = asMoney(raw, k);
      const narrow =
        typeof choices[`more_${k}`] === "string"
          ? String(choices[`more_${k}`])
          : "name the one meant by its words";
      const heading = [fieldOf[k] && `for ${fieldOf[k]}`, orderOf[k]].filter(Boolean).join("; ");
      lines.push(...section(`options.${k}`, v, narrow, cut, heading || undefined));
    }
    if (settled.length) lines.push(`set already, choices not repeated: ${[...new Set(settled)].join(", ")}`);
  }
  const unchanged = Array.isArray(result.options_unchanged) ? (result.options_unchanged as string[]) : [];
  if (unchanged.length && choosing) lines.push(`options unchanged (as sent before): ${unchanged.join(", ")}`);
  // The summary in full where the person decides on it; afterwards its headline only.
  // Once the effect is under way, the effect and verification lines say what happened.
  // A refusal (not approved yet, rejected by the person) names the summary, not all of it again.
  if (deciding) lines.push(...decided);
  else if (result.summary && typeof result.summary === "object") {
    if (!result.effect) lines.push(agentSummaryLines(result.summary)[0] ?? "");
    else if ((result.effect as Json).status === "applied") {
      const done = doneWith(result.summary as Json, message);
      if (done) lines.push(done);
    }
  }
  const rest: string[] = [];
  for (const [k, v] of Object.entries(result)) {
    if (RENDERED.has(k) || isEmpty(v)) continue;
    // When it was checked is for the record (structuredContent), not for the next step.
    const shown = asMoney(
      k === "verification" && v && typeof v === "object" ? withoutKey(v as Json, "checked_at") : v,
      k,
    );
    rest.push(...section(k, shown, more, cut));
  }
  lines.push(...rest);
  const effect = result.effect as Json | null | undefined;
  // The message of a verified effect, or its verification's line, already names it and its id.
  const said =
    effect?.status === "applied" &&
    [message, ...rest].some((l) => l.includes(String(effect.external_id ?? "\u0000")));
  if (effect?.status && !said)
    lines.push(`effect: ${effect.status}${effect.external_id ? ` (${effect.external_id})` : ""}`);
  const ask = result.ask_user as { message?: string; record?: string; candidates?: string[] } | undefined;
  if (ask?.message) {
    // The record sent and a few others, as the browse face lists them; the rest are counted.
    const shown = shownCandidates(ask);
    lines.push(
      `ask the user: ${ask.message}`,
      ...shown.lines.map((c) => `- \`${c.split(" ")[0]}\`${c.includes(" ") ? c.slice(c.indexOf(" ")) : ""}`),
    );
    if (shown.more)
      lines.push(
        `- and ${shown.more} more${shown.listed ? ` (structuredContent ask_user.candidates lists ${shown.listed === shown.more ? "them" : shown.listed})` : ""}`,
      );
  }
  const approval = approvalLine(result.approval);
  if (typeof result.approval_url === "string")
    lines.push(
      // That the approval carries it out is confirm_action's own line below: said once. Who the
      // approver is, the message says ("an admin must approve it"; set N: "the user decides" beside it
      // sent the model to a person who could not decide).
      `${approval ?? "approval: pending"} — its approver decides; approve at: ${result.approval_url}`,
    );
  // A decided approval matters while it still decides something, not after the effect.
  else if (approval && !result.effect) lines.push(approval);

  lines.push(...alsoDoneLines(result));
  const notDone = notDoneLines(result);
  lines.push(...notDone);
  if (result.next_actions.length) {
    lines.push("next:");
    const searching = Array.isArray(result.results) && result.results.length > 0;
    const shown = searching
      ? new Set(strongResults(result.results as Json[]).map((r) => r.capability))
      : null;
    for (const n of result.next_actions.filter((x) => !shown || shown.has(x.args?.capability)))
      lines.push(
        searching
          ? `- ${n.tool} ${JSON.stringify(n.args ?? {})}${/entity_id/.test(n.description) ? " + entity_id" : ""}`
          : nextLine(n, result),
      );
  } else if (notDone.length) lines.push("next: nothing more is offered; tell the user what was not done");
  else if (ENDED_STATUSES.has(String(result.status)) || (result.outcome === "applied" && !result.action_id))
    lines.push("next: none (flow finished)");
  else lines.push("next: nothing is offered; act on the message above (fix the arguments, or tell the user)");
  return lines.join("\n");
}
