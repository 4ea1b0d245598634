import { z } from "zod";
import { withShown } from "../../sdk/decision-summary";
import { defineCapability } from "../../sdk/define-capability";
import type { HelpdeskAdapter } from "../helpdesk-adapter";
import { helpdeskSummary } from "../helpdesk-summary-fields";
import { patchTicket, verifyTicket } from "../patch-ticket";
import { HELPDESK_POLICY, type TicketDerived, ticketNode, ticketSummary } from "../ticket-node";

export const resolveTicket = defineCapability<HelpdeskAdapter, TicketDerived>({
  id: "resolve_ticket",
  connector: "helpdesk",
  title: "Resolve ticket",
  description: "Marks one open or pending ticket resolved, with the resolution that explains what was done.",
  trigger: {
    // "Close" is this capability's word for an open ticket (closing it needs the resolution);
    // a resolved ticket is closed by close_ticket, which keeps the resolution it has.
    use: "A support operator has solved the customer's problem on an open or pending ticket and wants it marked resolved, or closed, with a resolution.",
    avoid:
      "Not for tickets already resolved or closed (close_ticket closes a resolved one); not without a resolution.",
  },
  synonyms: [
    "resolve",
    "close",
    "solved",
    "fixed",
    "done",
    "mark resolved",
    "close ticket",
    "解决",
    "关闭工单",
    "已解决",
    "结单",
    "完结",
  ],
  appliesTo: { entity: "Ticket", field: "ticket_id" },
  prerequisites: ["an open or pending ticket", "a resolution text"],
  sideEffects: ["sets the ticket's status to resolved and records the resolution"],
  policy: { effect: "write", permission: "helpdesk.ticket.resolve", approval: "never", ...HELPDESK_POLICY },
  nodes: [
    ticketNode(
      "The ticket; only open or pending tickets can be resolved",
      (t) =>
        t.status === "open" || t.status === "pending"
          ? []
          : [
              {
                field: "ticket_id",
                code: "ticket_already_resolved",
                message: `The ticket is already ${t.status}`,
                already: true,
              },
            ],
      { listing: "helpdesk://tickets?status=open" },
    ),
    {
      id: "RESOLUTION",
      description: "What was done to solve it",
      fields: {
        resolution: z
          .string()
          .trim()
          .min(10)
          .max(2000)
          .describe("The resolution: what was done, in a sentence or more (at least 10 characters)"),
      },
    },
    { id: "CONFIRM_RESOLVE", description: "Resolve the ticket", requiresConfirmation: true },
  ],
  summarize: ({ values, derived }) =>
    withShown(
      {
        ...ticketSummary(derived.ticket),
        to_status: "resolved",
        resolution: values.resolution,
      },
      helpdeskSummary("Resolve the ticket"),
    ),
  effect: {
    kind: "helpdesk.resolution",
    description: "Resolve the ticket",
    execute: ({ adapter, values, derived, actionKey, attempts, timeoutMs }) =>
      patchTicket(
        adapter,
        derived.ticket.id,
        { status: "resolved", resolution: values.resolution as string },
        actionKey,
        { attempts, timeoutMs },
      ),
    verify: ({ adapter, values, derived }) =>
      verifyTicket(adapter, derived.ticket.id, {
        status: "resolved",
        resolution: values.resolution,
      }),
  },
});
