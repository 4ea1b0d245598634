import { z } from "zod";
import type { NodeDefinition } from "../sdk/define-capability";
import type { ValidationError } from "../sdk/outcome";
import type { HelpdeskAdapter, HelpdeskTicket } from "./helpdesk-adapter";
import { type TicketChoice, ticketCandidates } from "./ticket-candidates";

export const ticketIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "a ticket id such as tkt_1")
  .describe("Stable ticket id, e.g. tkt_1 (not the subject); options.tickets lists candidates");

/** What the ticket node derives for the rest of a ticket capability. */
export type TicketDerived = { ticket: HelpdeskTicket };

/**
 * The first node of every ticket capability: load the ticket, then check its state allows the
 * change. `unchanged` says when a ticket is already as the fields given ask ("already urgent"):
 * offered, such a ticket is not counted as one the change can be done for.
 */
/**
 * The check of a change made only to work still to do: an open or pending ticket; a resolved or
 * closed one is refused, saying it is reopened first (`doing`: "before assigning").
 */
export function openTicketOnly(doing: string): (ticket: HelpdeskTicket) => ValidationError[] {
  return (t) =>
    t.status === "open" || t.status === "pending"
      ? []
      : [{ field: "ticket_id", code: "ticket_not_open", message: `The ticket is ${t.status}; ${doing}` }];
}

export function ticketNode(
  description: string,
  check: (ticket: HelpdeskTicket) => ValidationError[],
  choice?: TicketChoice,
  unchanged?: (ticket: HelpdeskTicket, values: Record<string, unknown>) => string | null,
): NodeDefinition<HelpdeskAdapter, TicketDerived> {
  return {
    id: "TICKET",
    description,
    fields: { ticket_id: ticketIdSchema },
    async resolve({ adapter, actor, values }) {
      const id = values.ticket_id as string | undefined;
      // No ticket named: offer the caller's tickets with what this capability can do for each,
      // so "resolve the parcel ticket" needs no browsing first.
      if (!id) return { options: await ticketCandidates(adapter, actor, offered(values), choice) };
      const ticket = await adapter.ticket(id);
      if (!ticket) return { notFound: { entity: "Ticket", id } };
      return {
        derived: { ticket },
        options: {
          ticket: {
            id: ticket.id,
            subject: ticket.subject,
            status: ticket.status,
            priority: ticket.priority,
            assignee_id: ticket.assignee_id,
            team_id: ticket.team_id,
          },
        },
        errors: check(ticket),
      };
    },
    // What the user's words may name beyond the few offered: every ticket of the window, with
    // its description's first words (round 24: "the ticket about the SAVE5 coupon" matched only
    // "coupon" of a subject, and the model opened the ticket to check).
    async lookup({ adapter, actor, values }) {
      return (await ticketCandidates(adapter, actor, offered(values), choice, true)) as Record<
        string,
        unknown[]
      >;
    },
  };

  /** Each ticket's verdict for this change: already as asked, or the capability's own check. */
  function offered(values: Record<string, unknown>) {
    return (t: HelpdeskTicket): ValidationError[] => {
      const same = unchanged?.(t, values);
      return same ? [{ field: "ticket_id", code: "unchanged", message: same }] : check(t);
    };
  }
}

/** What the person approved includes the ticket's version: a ticket changed meanwhile voids it. */
export function ticketSummary(ticket: HelpdeskTicket) {
  return { ticket_id: ticket.id, subject: ticket.subject, ticket_version: ticket.updated_at };
}

export const HELPDESK_POLICY = {
  roles: ["support", "admin"] as Array<"support" | "admin">,
  retry: { attempts: 3, backoffMs: 100 },
  timeoutMs: 3000,
  audit: "full" as const,
};
