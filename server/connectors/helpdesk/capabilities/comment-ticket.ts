import { z } from "zod";
import { wordTable } from "../../../word-table";
import { withShown } from "../../sdk/decision-summary";
import { defineCapability, type EffectResult, type Verification } from "../../sdk/define-capability";
import { toEffectResult } from "../../sdk/effect-result";
import { sendWithRetries } from "../../sdk/http-client";
import type { HelpdeskAdapter } from "../helpdesk-adapter";
import { helpdeskSummary } from "../helpdesk-summary-fields";
import { HELPDESK_POLICY, type TicketDerived, ticketNode, ticketSummary } from "../ticket-node";

/** Who writes the comment: the acting person's teammate id, else their email (never an argument). */
type CommentDerived = TicketDerived & { author: string };

/**
 * The user's text is the comment: one pair of quote marks around all of it only delimits it
 * ("… tkt_1: 'text'"), the rest is kept as they wrote it.
 */
const PAIRS: Readonly<Record<string, string>> = wordTable({
  '"': '"',
  "'": "'",
  "“": "”",
  "‘": "’",
  "«": "»",
});
function unquoted(text: string): string {
  const open = text[0] ?? "";
  const close = PAIRS[open];
  if (!close || text.length < 3 || !text.endsWith(close)) return text;
  const inner = text.slice(1, -1);
  // Two quoted spans ("'a' and 'b'") are not one pair around it all; an apostrophe inside is kept.
  return inner.includes(`${close} `) || inner.includes(` ${open}`) ? text : inner.trim();
}
const commentBody = z
  .string()
  .trim()
  .transform(unquoted)
  .pipe(z.string().min(1).max(5000))
  .describe("The comment, exactly as the user worded it (never your own wording)");

/** The comment this action wrote: the one carrying its action key as reference. */
async function commentByKey(adapter: HelpdeskAdapter, ticketId: string, actionKey: string) {
  return (await adapter.comments(ticketId)).find((c) => c.reference === actionKey) ?? null;
}

export const commentTicket = defineCapability<HelpdeskAdapter, CommentDerived>({
  id: "comment_ticket",
  connector: "helpdesk",
  title: "Comment on ticket",
  description:
    "Adds one comment to a ticket, the user's text verbatim, shown to the customer unless marked internal. Does not change status, priority or assignee.",
  trigger: {
    use: "A support operator wants a note or reply added to a ticket's thread (comment, note, reply).",
    avoid:
      "Not for resolving, reopening, assigning or re-prioritizing a ticket; not for text the user did not give.",
  },
  synonyms: [
    "comment",
    "add a comment",
    "note",
    "internal note",
    "reply",
    // Round 28: "Tell the customer on the kettle refund ticket that …" found nothing.
    "tell the customer",
    "let the customer know",
    "reply to the customer",
    "write to the customer",
    "message the customer",
    "评论",
    "备注",
    "留言",
    "回复工单",
  ],
  appliesTo: { entity: "Ticket", field: "ticket_id" },
  prerequisites: ["a ticket", "the comment's text in the user's words"],
  sideEffects: ["adds a comment to the ticket's thread (the customer sees it unless internal)"],
  // As resolve_ticket's resolution: text the customer may read, written by the operator asking
  // for it and shown to them before confirming; it moves no money and changes no ownership.
  policy: { effect: "write", permission: "helpdesk.ticket.comment", approval: "never", ...HELPDESK_POLICY },
  nodes: [
    ticketNode("The ticket to comment on; any status takes a comment", () => [], {
      listing: "helpdesk://tickets",
    }),
    {
      id: "COMMENT",
      description: "The comment and who sees it",
      fields: {
        body: commentBody,
        internal: z
          .boolean()
          .default(false)
          .describe(
            "true for an internal note the customer does not see; default false: the customer sees it",
          ),
      },
      required: ["body"],
      // Who reads it is the user's word: "note" alone says neither (played: the model dry-ran
      // "add an internal note" to learn whether the words were taken). Shown to the customer only
      // on an ask addressed to them: "add a note to the customer's ticket" was posted publicly at
      // once (security review); loose words are hints, and hints of both sides hold the comment.
      saidBy: {
        internal: {
          values: [
            {
              value: true,
              words: [
                "internal note",
                "internal comment",
                "internal remark",
                "private note",
                "private comment",
                "private remark",
                // A note "for the team" is the team's to read (set AL: it was shown to the customer
                // by default, and "team" tied the note with moving the ticket to a team).
                "note for the team",
                "comment for the team",
                "team note",
                "staff note",
                "internally",
              ],
              hints: ["internal", "private", "privately", "confidential", "note", "remark"],
            },
            {
              value: false,
              words: [
                "reply to the customer",
                "respond to the customer",
                "answer the customer",
                "write back to the customer",
                "write to the customer",
                "tell the customer",
                "let the customer know",
                "message the customer",
                "email the customer",
                "ask the customer",
                "reply publicly",
                // The requester is the customer who raised it (set CL: "Reply to the requester of
                // …" held the comment to ask whether the customer should see it).
                "reply to the requester",
                "respond to the requester",
                "answer the requester",
                "write back to the requester",
                "write to the requester",
                "tell the requester",
                "let the requester know",
                "message the requester",
                "email the requester",
                "ask the requester",
              ],
              hints: [
                "reply",
                "respond",
                "to the customer",
                "for the customer",
                "to the requester",
                "for the requester",
                "public",
                "publicly",
              ],
            },
          ],
          defaultMeans: "the customer sees it",
        },
      },
      async resolve({ adapter, actor }) {
        // The author is who the credential says acts: their teammate id when they are one.
        const email = actor.email.toLowerCase();
        const mate = (await adapter.teammates()).find((m) => m.email.toLowerCase() === email);
        return { derived: { author: mate?.id ?? actor.email } };
      },
    },
    { id: "CONFIRM_COMMENT", description: "Add the comment", requiresConfirmation: true },
  ],
  summarize: ({ values, derived }) =>
    withShown(
      {
        ...ticketSummary(derived.ticket),
        author: derived.author,
        // Keyed as the field it shows, so a default is marked as one on every surface.
        internal: values.internal === true ? "internal note" : "shown to the customer",
        comment: values.body,
      },
      helpdeskSummary("Add the comment"),
    ),
  effect: {
    kind: "helpdesk.comment",
    description: "Add the comment",
    async execute({ adapter, values, derived, actionKey, attempts, timeoutMs }): Promise<EffectResult> {
      const ticketId = derived.ticket.id;
      const res = await sendWithRetries(
        adapter.http,
        {
          method: "POST",
          path: `/v1/tickets/${encodeURIComponent(ticketId)}/comments`,
          idempotencyKey: actionKey,
          body: {
            author: derived.author,
            body: values.body,
            internal: values.internal === true,
            reference: actionKey,
          },
        },
        { attempts, timeoutMs },
      );
      // Applied only when the thread holds the comment under our key: a 201 is not proof.
      return toEffectResult(res, async () => {
        const mine = await commentByKey(adapter, ticketId, actionKey);
        return mine
          ? { applied: true, externalId: mine.id }
          : { applied: false, message: `no comment with this action's key on ticket ${ticketId}` };
      });
    },
    async verify({ adapter, derived, actionKey }): Promise<Verification> {
      const mine = await commentByKey(adapter, derived.ticket.id, actionKey);
      if (!mine) return { happened: false, details: { status: "no_comment", ticket_id: derived.ticket.id } };
      return {
        happened: true,
        externalId: mine.id,
        details: {
          status: "commented",
          ticket_id: derived.ticket.id,
          comment_id: mine.id,
          internal: mine.internal,
        },
      };
    },
  },
});
