import type { NextAction } from "../sdk/outcome";
import type { HelpdeskAdapter } from "./helpdesk-adapter";
import { COMMENTS_SHOWN, commentRows, commentsUri } from "./ticket-comment-rows";

/**
 * The Ticket view: the ticket, its assignee and team, its newest comments (what the customer was
 * told lives there, not in the resolution alone), and which of the narrow changes apply now.
 */
export async function ticketView(adapter: HelpdeskAdapter, ticketId: string) {
  const ticket = await adapter.ticket(ticketId);
  if (!ticket) return null;
  const [mates, thread] = await Promise.all([
    adapter.teammates(),
    adapter.lastComments(ticketId, COMMENTS_SHOWN),
  ]);
  const assignee = mates.find((m) => m.id === ticket.assignee_id) ?? null;
  const open = ticket.status === "open" || ticket.status === "pending";
  const allowed = {
    assign_ticket: open ? { eligible: true } : { eligible: false, reason: "ticket_not_open" },
    change_ticket_priority:
      ticket.status !== "closed" ? { eligible: true } : { eligible: false, reason: "ticket_closed" },
    resolve_ticket: open ? { eligible: true } : { eligible: false, reason: "ticket_already_resolved" },
    reopen_ticket: !open ? { eligible: true } : { eligible: false, reason: "ticket_not_resolved" },
    // Only a resolved ticket: an open one is resolved first, with its resolution.
    close_ticket:
      ticket.status === "resolved"
        ? { eligible: true }
        : {
            eligible: false,
            reason: ticket.status === "closed" ? "ticket_already_closed" : "ticket_not_resolved",
          },
    set_ticket_status: open ? { eligible: true } : { eligible: false, reason: "ticket_not_open" },
    move_ticket_to_team: open ? { eligible: true } : { eligible: false, reason: "ticket_not_open" },
    // A ticket nobody holds has nothing to unassign: its empty assignee says so already.
    ...(ticket.assignee_id
      ? { unassign_ticket: open ? { eligible: true } : { eligible: false, reason: "ticket_not_open" } }
      : {}),
    // Any ticket takes a comment (a closed one too: the customer may still be told something).
    comment_ticket: { eligible: true },
  };
  const next: NextAction[] = Object.entries(allowed)
    .filter(([, a]) => a.eligible)
    .map(([capability]) => ({
      tool: "start_action" as const,
      args: { capability, entity_id: ticket.id },
      description: capability.replace(/_/g, " "),
    }));
  const earlier = thread.total - thread.comments.length;
  return {
    entity: "Ticket",
    ...ticket,
    // Said, not left out: a missing line read as "not shown" (set X: a model listed the tickets
    // to learn the charged twice ticket had nobody on it).
    assignee: assignee
      ? { id: assignee.id, name: assignee.name, team_id: assignee.team_id }
      : "none (unassigned)",
    version: ticket.updated_at,
    // What may be done is the next actions (the page's forms); only what may not is said, with why:
    // the whole table of flags cost every read of a ticket ~50 tokens to say the same twice.
    not_now: Object.fromEntries(
      Object.entries(allowed).flatMap(([capability, a]) => ("reason" in a ? [[capability, a.reason]] : [])),
    ),
    // "none" said, not left out: an absent list reads as "not shown", and a model went looking.
    comments: thread.comments.length ? commentRows(thread.comments, mates, ticket.requester_email) : "none",
    ...(earlier > 0 ? { earlier_comments: { count: earlier, read_at: commentsUri(ticket.id) } } : {}),
    next_actions: next,
  };
}
