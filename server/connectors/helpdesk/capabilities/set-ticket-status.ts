import { z } from "zod";
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
 * The statuses an agent sets on work still to do. `resolved` is resolve_ticket's (it records the
 * resolution the customer is told); `closed` is not offered: the legacy PATCH would take it, but
 * an open ticket closed here would skip the resolution resolve_ticket requires. A resolved ticket
 * is closed by close_ticket (its resolution kept), and reopen_ticket brings resolved and closed
 * ones back with a reason.
 */
const SETTABLE = ["open", "pending"] as const;
type Settable = (typeof SETTABLE)[number];

export const setTicketStatus = defineCapability<HelpdeskAdapter, TicketDerived>({
  id: "set_ticket_status",
  connector: "helpdesk",
  title: "Set ticket status",
  description: "Sets one open or pending ticket to open or pending (on hold, waiting). Changes nothing else.",
  trigger: {
    // No "customer" or "reply" here: those are a comment's words ("reply to the customer" tied
    // with this capability when it said "waiting on the customer").
    use: "A support operator wants a ticket on hold or pending (waiting), or off hold back to open.",
    avoid:
      "Not for resolving or closing an open ticket (resolve_ticket), nor for closing a resolved one (close_ticket), nor for resolved or closed tickets (reopen_ticket).",
  },
  synonyms: [
    "status",
    "pending",
    "set to pending",
    "mark as pending",
    "on hold",
    "off hold",
    "waiting",
    "挂起",
    "待处理",
    "等待客户",
  ],
  appliesTo: { entity: "Ticket", field: "ticket_id" },
  prerequisites: ["an open or pending ticket"],
  sideEffects: ["changes the ticket's status between open and pending"],
  // As change_ticket_priority: a reversible change to the operator's own queue; no money moves,
  // nobody else's work is taken, and the customer is told nothing by it.
  policy: { effect: "write", permission: "helpdesk.ticket.status", approval: "never", ...HELPDESK_POLICY },
  nodes: [
    ticketNode(
      "The ticket; only open or pending tickets take this status change",
      openTicketOnly("reopen_ticket brings it back first"),
      { listing: "helpdesk://tickets?status=open" },
      (t, values) => (values.status === t.status ? `already ${t.status}` : null),
    ),
    {
      id: "STATUS",
      description: "The new status",
      fields: {
        status: z.enum(SETTABLE).describe("open | pending (pending: on hold, waiting on the customer)"),
      },
      valueWords: {
        status: {
          pending: ["on hold", "waiting", "awaiting", "paused"],
          // A phrase counts only word after word: "off hold" is open ("hold" alone, shared with
          // "on hold", names neither), "take … off" only as "take off".
          open: ["take off", "off hold", "resume", "unpause"],
        },
      },
      async resolve({ values, derived }) {
        const ticket = derived.ticket;
        if (!ticket) return {}; // TICKET stops the action until it has one
        const s = values.status as Settable | undefined;
        if (s && s === ticket.status)
          return {
            errors: [
              { field: "status", code: "same_status", message: `The ticket is already ${s}`, already: true },
            ],
          };
        return { options: { current_status: ticket.status } };
      },
    },
    { id: "CONFIRM_STATUS", description: "Set the status", requiresConfirmation: true },
  ],
  summarize: ({ values, derived }) => {
    const ticket = derived.ticket;
    return withShown(
      { ...ticketSummary(ticket), from_status: ticket.status, to_status: values.status },
      helpdeskSummary("Set the ticket's status"),
    );
  },
  effect: {
    kind: "helpdesk.status",
    description: "Set the ticket's status",
    execute: ({ adapter, values, derived, actionKey, attempts, timeoutMs }) =>
      patchTicket(adapter, derived.ticket.id, { status: values.status as Settable }, actionKey, {
        attempts,
        timeoutMs,
      }),
    verify: ({ adapter, values, derived }) =>
      verifyTicket(adapter, derived.ticket.id, { status: values.status }),
  },
});
