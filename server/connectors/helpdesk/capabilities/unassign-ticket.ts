import { z } from "zod";
import { withShown } from "../../sdk/decision-summary";
import { defineCapability } from "../../sdk/define-capability";
import { everyTeammate } from "../every-teammate";
import type { HelpdeskAdapter } from "../helpdesk-adapter";
import { helpdeskSummary } from "../helpdesk-summary-fields";
import { patchTicket, verifyTicket } from "../patch-ticket";
import {
  HELPDESK_POLICY,
  openTicketOnly,
  type TicketDerived,
  ticketNode,
  ticketSummary,
} from "../ticket-node";

/**
 * Takes a ticket off its assignee, back to the team's queue. Set AV (played): "Unassign the where
 * are my headphones ticket" found no capability; the model tried assign_ticket with a null
 * assignee, cancelled it, and searched again (4 calls where the wrapper's PATCH took one). The
 * person approves it and it names whom it takes off: reviews 56b and 56c found remarks ("Sid was
 * unassigned from …") and another teammate's name ran it at once on the holder.
 */
export const unassignTicket = defineCapability<HelpdeskAdapter, TicketDerived>({
  id: "unassign_ticket",
  connector: "helpdesk",
  title: "Unassign ticket",
  description:
    "Unassigns one ticket still being worked on, so it waits in its team's queue. Does not change status, priority or team.",
  trigger: {
    use: "A support operator wants a ticket unassigned (its teammate taken off it), so it waits in its team's queue.",
    avoid:
      "Not for giving the ticket to another teammate (assign_ticket) or to another team (move_ticket_to_team).",
  },
  synonyms: ["unassign", "unassigned", "取消分配", "退回队列"],
  appliesTo: { entity: "Ticket", field: "ticket_id" },
  prerequisites: ["a ticket not yet resolved, held by a teammate"],
  sideEffects: ["the ticket has no assignee afterwards"],
  policy: {
    effect: "write",
    permission: "helpdesk.ticket.assign",
    // It moves no money, yet the person approves it, as a cart's line: review 56c found remarks
    // that name the holder ("Sid was unassigned from the headphones ticket") run it at once.
    approval: "always",
    ...HELPDESK_POLICY,
  },
  nodes: [
    ticketNode(
      "The ticket; only open or pending tickets someone holds",
      (t) => {
        const closed = openTicketOnly("it is no longer worked on")(t);
        if (closed.length || t.assignee_id) return closed;
        return [
          {
            field: "ticket_id",
            code: "already_unassigned",
            message: "Nobody is assigned to this ticket",
            already: true,
          },
        ];
      },
      // The tickets someone holds are the ones that can be let go.
      { rank: { says: "assigned first", of: (t) => (t.assignee_id ? 0 : 1) } },
      (t) => (t.assignee_id ? null : "already unassigned"),
    ),
    {
      id: "HOLDER",
      description: "Who is taken off it: only the teammate holding it",
      fields: {
        assignee_id: z
          .string()
          .trim()
          .min(1)
          .max(64)
          .describe("The teammate taken off it, e.g. tm_sid: the one holding the ticket"),
      },
      lookup: everyTeammate,
      async resolve({ adapter, values, derived }) {
        const ticket = derived.ticket;
        if (!ticket) return {};
        const all = await adapter.teammates();
        // The one who can be taken off: the holder (the words naming another are refused below).
        const options = {
          teammates: all.filter((m) => m.id === ticket.assignee_id).map((m) => ({ id: m.id, name: m.name })),
        };
        const named = values.assignee_id as string | undefined;
        if (!named || named === ticket.assignee_id) return { options };
        const name = (id: string | null) => all.find((m) => m.id === id)?.name ?? id ?? "nobody";
        return {
          options,
          errors: [
            {
              field: "assignee_id",
              code: "not_holder",
              message: `${name(named)} does not hold this ticket; ${name(ticket.assignee_id)} does: ask the user`,
              choice_closed: true,
            },
          ],
        };
      },
    },
    { id: "CONFIRM_UNASSIGN", description: "Unassign the ticket", requiresConfirmation: true },
  ],
  summarize: ({ derived }) => {
    const ticket = derived.ticket;
    return withShown(
      { ...ticketSummary(ticket), from_assignee: ticket.assignee_id, to_assignee: "none" },
      helpdeskSummary("Unassign the ticket"),
    );
  },
  effect: {
    kind: "helpdesk.unassignment",
    description: "Unassign the ticket",
    execute: ({ adapter, derived, actionKey, attempts, timeoutMs }) =>
      patchTicket(adapter, derived.ticket.id, { assignee_id: null }, actionKey, { attempts, timeoutMs }),
    verify: ({ adapter, derived }) => verifyTicket(adapter, derived.ticket.id, { assignee_id: null }),
  },
});
