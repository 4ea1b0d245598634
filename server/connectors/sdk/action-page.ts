import { approvalNextSteps } from "./approval-next-steps";
import type { BackendOutcome, BrowseBackend, Row } from "./browse-backend";
import type { AwaitingApproval, PageBody } from "./define-route";
import { fromWordsLine } from "./from-words-line";
import { escapeText, type FormField, fieldList, link } from "./markdown";
import { notRunYet, type SubmittedWords, waitsForConfirm } from "./not-run-yet";
import { alsoAskedLines, alsoDoneLines, notDoneLines } from "./other-asks-lines";
import { ENDED_STATUSES } from "./outcome";
import { outcomeHeadline } from "./outcome-headline";
import { readApproval } from "./read-approval";
import {
  fieldsFromOutcome,
  formSection,
  nextActionsList,
  objectSections,
  optionsSections,
  problemsList,
} from "./render-helpers";
import { listsNotRepeated, notRepeatedLine, settledOnSubmit } from "./settled-on-submit";
import { summaryMarkdown } from "./summary-markdown";
import { userChoicesSection } from "./user-choices-section";

/**
 * An action as a page: where it stands, its summary, the next form, approval link. `afterSubmit`:
 * the page answers a capability form's submit (the form, with its choices, was just read);
 * `sent`: it answers a submit of any form (an imported write, an action's next step).
 */
export function actionPage(
  answer: BackendOutcome,
  backend: BrowseBackend,
  options: { afterSubmit?: SubmittedWords; sent?: boolean } = {},
): PageBody {
  const actionId = String(answer.action_id ?? "");
  const uri = `actions://${actionId}`;
  // A browse agent opens no URL for its person: their approval at the link carries the action
  // out, said in the action face's words, and the confirm it would make is not offered.
  const outcome = approvalNextSteps(answer, { opensUrls: false, readsResult: `navigate ${uri}` });
  const carried = (outcome.next_actions ?? []).length < (answer.next_actions ?? []).length;
  const parts: string[] = [];
  // An action that ended (done, cancelled, refused) is read for what happened: its choices, the
  // step it stopped at and the link to itself are history. Round H's model read 760–827 tokens
  // to learn that an approved checkout and refund were done, most of them the options it had
  // chosen from.
  const ended = ENDED_STATUSES.has(String(outcome.status));
  // One line, the action's id being the page's title: five lines of labels cost every answer of
  // an open action ~35 tokens (set BQ: three of a checkout's answers said them).
  const step = !ended && outcome.node ? ` · step ${escapeText(outcome.node)}` : "";
  parts.push(
    `${escapeText(outcome.capability)} · ${escapeText(outcome.status)} · version ${escapeText(outcome.version)}${step}`,
  );
  parts.push(`**${outcomeHeadline(outcome)}:** ${escapeText(outcome.message)}`);
  const problems = Array.isArray(outcome.validation_errors) && outcome.validation_errors.length > 0;
  if (problems) parts.push(problemsList(outcome));
  // The submit that left it with a person: what to tell them (the sentence, the amounts), not the
  // choices it was filled from, nor a form for details already sent (round: 945–1,139 tokens of
  // an after-sales return's answer were the tables and the form again). `navigate` the action
  // reads it whole.
  const withPerson =
    (!!options.afterSubmit || options.sent === true) &&
    outcome.status === "awaiting_approval" &&
    readApproval(outcome.approval)?.status === "pending";
  const summary =
    outcome.summary && typeof outcome.summary === "object"
      ? summaryMarkdown(outcome.summary, withPerson || ended, !ended)
      : "";
  // What a submit's words (or a label sent for a record) set, and why that record: the action
  // face's line. Compared with the summary as shown, escapes aside.
  const fromWords =
    options.afterSubmit || options.sent === true
      ? fromWordsLine(outcome, summary.replace(/\\(.)/g, "$1"), escapeText)
      : null;
  if (fromWords) parts.push(fromWords);
  // The brief page has no form: its choices line says the submit that sets one.
  const userChoices = userChoicesSection(outcome, withPerson ? uri : undefined);
  if (userChoices.markdown) parts.push(userChoices.markdown);
  if (summary) {
    parts.push(
      withPerson
        ? `## Summary (in brief: the person's screen shows every line)\n\n${summary}`
        : `## Summary\n\n${summary}`,
    );
  }
  if (outcome.result && typeof outcome.result === "object") {
    parts.push(`## Result\n\n${objectSections(outcome.result as Row)}`);
  }
  if (outcome.verification && typeof outcome.verification === "object") {
    parts.push(`## Verification\n\n${objectSections(outcome.verification as Row)}`);
  }
  // Left with a person, the pending approval is said on the confirmation line (below): one line
  // where a section of two said it again (the tokens the brief page's choices and items cost).
  const confirms = outcome.requires_confirmation === true && carried;
  const pendingUntil = withPerson && confirms ? readApproval(outcome.approval)?.expires_at : undefined;
  const approval = pendingUntil ? null : approvalSection(outcome.approval);
  if (approval) parts.push(approval);
  const next = outcome.next_actions ?? [];
  // Complete, and only the agent's confirm left: why it did not run, and the one call that runs it.
  const waits = waitsForConfirm(outcome);
  if (waits) parts.push(notRunYet(outcome, actionId, options.afterSubmit));
  // Right after a form's submit that stopped at its confirmation, the choices and the fields are
  // what the agent just sent from: said again they cost tokens and read as still to be filled.
  const lean = (!!options.afterSubmit && waits) || withPerson || ended;
  // Still open after a submit: only what is left to choose, and the fields still to send.
  const submitted = !lean && (!!options.afterSubmit || options.sent === true) && !problems;
  const settled = submitted ? settledOnSubmit(outcome) : new Set<string>();
  const unrepeated = submitted ? listsNotRepeated(outcome, settled) : [];
  const choices = lean ? "" : optionsSections(outcome, [...userChoices.lists, ...unrepeated]);
  if (choices) parts.push(`## Choices\n\n${choices}`);
  const leftOut = notRepeatedLine(settled, unrepeated, uri);
  if (leftOut) parts.push(leftOut);
  let awaitingApproval: AwaitingApproval | undefined;
  if (confirms) {
    const url =
      typeof outcome.approval_url === "string"
        ? outcome.approval_url
        : backend.consoleUrl(`/confirm/${actionId}`);
    if (typeof outcome.version === "number")
      awaitingApproval = { actionId, version: outcome.version, url, summary: outcome.summary };
    parts.push(
      `## Confirmation\n\nA person must approve version ${escapeText(outcome.version)} before anything happens${pendingUntil ? ` (pending until ${escapeText(pendingUntil.slice(11, 16))} UTC)` : ""}: ${url}`,
    );
  }
  const allowed = Array.isArray(outcome.allowed_patch) ? (outcome.allowed_patch as string[]) : [];
  if (
    !lean &&
    allowed.length &&
    outcome.version !== undefined &&
    next.some((n) => n.tool === "advance_action")
  ) {
    const fields: FormField[] = [
      {
        name: "version",
        type: "integer",
        required: true,
        description: "the version shown above (stale versions are refused)",
        value: outcome.version,
      },
      ...fieldsFromOutcome(outcome).filter((f) => !settled.has(f.name)),
    ];
    parts.push(formSection(uri, fields));
  }
  // The rest of the user's words: what this call also did, what it could not, and the one call
  // of each ask left (set V: a form's submit said nothing of "and give it to Sara").
  const asks = [...alsoDoneLines(outcome), ...notDoneLines(outcome), ...alsoAskedLines(outcome)];
  if (asks.length) parts.push(asks.join("\n"));
  const pageLinks: string[] = ended ? [] : [link("This action", uri)];
  // The line on why it waits already names the confirm form.
  if (!waits && next.some((n) => n.tool === "confirm_action"))
    pageLinks.push(link("Confirm (form)", `${uri}/confirm`));
  if (next.some((n) => n.tool === "verify_action"))
    pageLinks.push(link("Verify with the business system", `${uri}/verify`));
  parts.push(
    ["## Next", nextActionsList(outcome), pageLinks.map((l) => `- ${l}`).join("\n")]
      .filter(Boolean)
      .join("\n\n"),
  );
  return {
    title: `Action ${actionId}`,
    outcome: outcome.outcome,
    markdown: parts.join("\n\n"),
    actionId,
    capability: typeof outcome.capability === "string" ? outcome.capability : undefined,
    ...(awaitingApproval ? { awaitingApproval } : {}),
  };
}

/** Where the person's decision stands, naming who decided and why (a rejection's reason). */
function approvalSection(value: unknown): string | null {
  const a = readApproval(value);
  if (!a) return null;
  const rows: Array<[string, unknown]> = [["Status", a.status]];
  if (a.decided_by?.name) rows.push(["Decided by", `${a.decided_by.name} (${a.decided_by.role})`]);
  if (a.decided_at) rows.push(["Decided at", a.decided_at]);
  if (a.reason) rows.push(["Reason", a.reason]);
  if (a.status === "pending" && a.expires_at) rows.push(["Valid until", a.expires_at]);
  return `## Approval\n\n${fieldList(rows)}`;
}
