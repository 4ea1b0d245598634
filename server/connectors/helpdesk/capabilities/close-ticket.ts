import { withShown } from "../../sdk/decision-summary";
import { defineCapability } from "../../sdk/define-capability";
import type { ValidationError } from "../../sdk/outcome";
import type { HelpdeskAdapter, HelpdeskTicket } from "../helpdesk-adapter";
import { helpdeskSummary } from "../helpdesk-summary-fields";
import { patchTicket, verifyTicket } from "../patch-ticket";
import { HELPDESK_POLICY, type TicketDerived, ticketNode, ticketSummary } from "../ticket-node";

/**
 * Only a resolved ticket is closed: it has the resolution the customer was told, and closing
 * keeps it. An open or pending one is resolve_ticket's first (set_ticket_status offers no
 * `closed` for the same reason); a closed one is as asked already.
 */
function resolvedOnly(t: HelpdeskTicket): ValidationError[] {
  if (t.status === "resolved") return [];
  if (t.status === "closed")
    return [
      {
        field: "ticket_id",
        code: "ticket_already_closed",
        message: "The ticket is already closed",
        already: true,
      },
    ];
  // Refused with the way forward: started by words ("close the charged twice ticket, we
  // refunded it"), resolve_ticket is started instead on the same ticket (instead-of-refused.ts).
  return [
    {
      field: "ticket_id",
      code: "ticket_not_resolved",
      message: `The ticket is ${t.status}, not resolved; resolve it with resolve_ticket first (closing needs its resolution)`,
      refused: true,
      alternatives: [
        {
          capability: "resolve_ticket",
          entity_id: t.id,
          description: "Resolve the ticket with the resolution the customer is told",
        },
      ],
    },
  ];
}

export const closeTicket = defineCapability<HelpdeskAdapter, TicketDerived>({
  id: "close_ticket",
  connector: "helpdesk",
  title: "Close ticket",
  description: "Closes one resolved ticket, keeping its resolution. Changes nothing else.",
  trigger: {
    use: "A resolved ticket is finished for good and should be closed or archived, left as it is.",
    avoid:
      "Not for open or pending tickets: those are resolved first with a resolution (resolve_ticket); not for reopening (reopen_ticket).",
  },
  synonyms: ["close", "close the ticket", "close a resolved ticket", "archive", "归档", "关闭已解决工单"],
  appliesTo: { entity: "Ticket", field: "ticket_id" },
  prerequisites: ["a resolved ticket"],
  sideEffects: ["sets the ticket's status from resolved to closed; its resolution is kept"],
  // As reopen_ticket: the operator's own queue, reversible (reopen_ticket brings it back), no
  // money moves and the customer is told nothing by it.
  policy: { effect: "write", permission: "helpdesk.ticket.close", approval: "never", ...HELPDESK_POLICY },
  nodes: [
    ticketNode("The ticket; only resolved tickets can be closed", resolvedOnly, {
      listing: "helpdesk://tickets?status=resolved",
    }),
    { id: "CONFIRM_CLOSE", description: "Close the ticket", requiresConfirmation: true },
  ],
  summarize: ({ derived }) => {
    const ticket = derived.ticket;
    return withShown(
      {
        ...ticketSummary(ticket),
        from_status: ticket.status,
        to_status: "closed",
        // The resolution it keeps, as the customer was told it (none said where it has none).
        ...(ticket.resolution ? { resolution: ticket.resolution } : {}),
      },
      helpdeskSummary("Close the ticket"),
    );
  },
  effect: {
    kind: "helpdesk.close",
    description: "Close the ticket",
    execute: ({ adapter, derived, actionKey, attempts, timeoutMs }) =>
      patchTicket(adapter, derived.ticket.id, { status: "closed" }, actionKey, { attempts, timeoutMs }),
    // Closed with the resolution it had: the customer's answer is not lost by closing.
    verify: ({ adapter, derived }) =>
      verifyTicket(adapter, derived.ticket.id, { status: "closed", resolution: derived.ticket.resolution }),
  },
});
