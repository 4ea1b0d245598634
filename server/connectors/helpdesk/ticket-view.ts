import type { NextAction } from "../sdk/outcome";
import type { HelpdeskAdapter } from "./helpdesk-adapter";

/** The Ticket view: the ticket, its assignee and team, and which of the narrow changes apply now. */
export async function ticketView(adapter: HelpdeskAdapter, ticketId: string) {
  const ticket = await adapter.ticket(ticketId);
  if (!ticket) return null;
  const mates = await adapter.teammates();
  const assignee = mates.find((m) => m.id === ticket.assignee_id) ?? null;
  const open = ticket.status === "open" || ticket.status === "pending";
  const allowed = {
    assign_ticket: open ? { eligible: true } : { eligible: false, reason: "ticket_not_open" },
    change_ticket_priority:
      ticket.status !== "closed" ? { eligible: true } : { eligible: false, reason: "ticket_closed" },
    resolve_ticket: open ? { eligible: true } : { eligible: false, reason: "ticket_already_resolved" },
    reopen_ticket: !open ? { eligible: true } : { eligible: false, reason: "ticket_not_resolved" },
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
  return {
    entity: "Ticket",
    ...ticket,
    assignee: assignee ? { id: assignee.id, name: assignee.name, team_id: assignee.team_id } : null,
    version: ticket.updated_at,
    allowed,
    next_actions: next,
  };
}
