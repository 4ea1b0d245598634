import { withShown } from "../../sdk/decision-summary";
import { defineCapability } from "../../sdk/define-capability";
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
 * assignee, cancelled it, and searched again (4 calls where the wrapper's PATCH took one).
 */
export const unassignTicket = defineCapability<HelpdeskAdapter, TicketDerived>({
  id: "unassign_ticket",
  connector: "helpdesk",
  title: "Unassign ticket",
  description:
    "Unassigns one ticket still being worked on, so it waits in its team's queue. Does not change status, priority or team.",
  trigger: {
    use: "A support operator wants nobody holding a ticket (unassign it), so it waits in its team's queue.",
    avoid:
      "Not for giving the ticket to another teammate (assign_ticket) or to another team (move_ticket_to_team).",
  },
  synonyms: ["unassign", "unassigned", "nobody holding", "取消分配", "退回队列"],
  appliesTo: { entity: "Ticket", field: "ticket_id" },
  prerequisites: ["a ticket not yet resolved, held by a teammate"],
  sideEffects: ["nobody holds the ticket afterwards"],
  policy: { effect: "write", permission: "helpdesk.ticket.assign", approval: "never", ...HELPDESK_POLICY },
  nodes: [
    ticketNode(
      "The ticket; only open or pending tickets someone holds",
      (t) => {
        const closed = openTicketOnly("nobody works on it")(t);
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
