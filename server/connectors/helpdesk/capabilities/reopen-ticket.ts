import { z } from "zod";
import { withShown } from "../../sdk/decision-summary";
import { defineCapability } from "../../sdk/define-capability";
import type { HelpdeskAdapter } from "../helpdesk-adapter";
import { helpdeskSummary } from "../helpdesk-summary-fields";
import { patchTicket, verifyTicket } from "../patch-ticket";
import { HELPDESK_POLICY, type TicketDerived, ticketNode, ticketSummary } from "../ticket-node";

export const reopenTicket = defineCapability<HelpdeskAdapter, TicketDerived>({
  id: "reopen_ticket",
  connector: "helpdesk",
  title: "Reopen ticket",
  description: "Reopens one resolved or closed ticket, with the reason it needs more work.",
  trigger: {
    use: "A resolved or closed ticket needs more work: the customer came back, the fix did not hold.",
    avoid: "Not for tickets that are still open or pending.",
  },
  synonyms: [
    "reopen",
    "open again",
    "not fixed",
    "came back",
    "unresolved",
    "again",
    "重新打开",
    "重开",
    "再次打开",
    "没解决",
  ],
  appliesTo: { entity: "Ticket", field: "ticket_id" },
  prerequisites: ["a resolved or closed ticket"],
  sideEffects: ["sets the ticket's status back to open"],
  policy: { effect: "write", permission: "helpdesk.ticket.reopen", approval: "never", ...HELPDESK_POLICY },
  nodes: [
    ticketNode(
      "The ticket; only resolved or closed tickets can be reopened",
      (t) =>
        t.status === "resolved" || t.status === "closed"
          ? []
          : [
              {
                field: "ticket_id",
                code: "ticket_not_resolved",
                message: `The ticket is ${t.status}, not resolved or closed; nothing to reopen`,
              },
            ],
      // Resolved before closed: a resolved ticket is the one a customer comes back about.
      {
        rank: { says: "resolved before closed", of: (t) => (t.status === "resolved" ? 0 : 1) },
        listing: "helpdesk://tickets?status=resolved",
      },
    ),
    {
      id: "REASON",
      description: "Why it needs more work",
      fields: { reason: z.string().trim().min(3).max(1000).describe("Why the ticket is reopened") },
      // Shown in the summary and kept in the audit; the helpdesk is only told the new status.
      keptOnly: ["reason"],
    },
    { id: "CONFIRM_REOPEN", description: "Reopen the ticket", requiresConfirmation: true },
  ],
  summarize: ({ values, derived }) => {
    const ticket = derived.ticket;
    return withShown(
      { ...ticketSummary(ticket), from_status: ticket.status, to_status: "open", reason: values.reason },
      helpdeskSummary("Reopen the ticket"),
    );
  },
  effect: {
    kind: "helpdesk.reopen",
    description: "Reopen the ticket",
    execute: ({ adapter, derived, actionKey, attempts, timeoutMs }) =>
      patchTicket(adapter, derived.ticket.id, { status: "open" }, actionKey, {
        attempts,
        timeoutMs,
      }),
    verify: ({ adapter, derived }) => verifyTicket(adapter, derived.ticket.id, { status: "open" }),
  },
});
