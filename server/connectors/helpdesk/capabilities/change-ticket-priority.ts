import { z } from "zod";
import { withShown } from "../../sdk/decision-summary";
import { defineCapability } from "../../sdk/define-capability";
import type { HelpdeskAdapter, TicketPriority } from "../helpdesk-adapter";
import { helpdeskSummary } from "../helpdesk-summary-fields";
import { patchTicket, verifyTicket } from "../patch-ticket";
import { HELPDESK_POLICY, type TicketDerived, ticketNode, ticketSummary } from "../ticket-node";

export const changeTicketPriority = defineCapability<HelpdeskAdapter, TicketDerived>({
  id: "change_ticket_priority",
  connector: "helpdesk",
  title: "Change ticket priority",
  description: "Sets one ticket's priority (low, normal, high, urgent). Does not assign, resolve or reopen.",
  trigger: {
    use: "A support operator wants a ticket escalated, made urgent, or de-prioritized.",
    avoid: "Not for closed tickets; not for assigning or resolving.",
  },
  synonyms: [
    "priority",
    "escalate",
    "urgent",
    "raise priority",
    "lower priority",
    "deprioritize",
    "important",
    "优先级",
    "加急",
    "紧急",
    "升级",
    "降低优先级",
  ],
  appliesTo: { entity: "Ticket", field: "ticket_id" },
  prerequisites: ["a ticket that is not closed"],
  sideEffects: ["changes the ticket's priority"],
  policy: {
    effect: "write",
    permission: "helpdesk.ticket.prioritize",
    approval: "never",
    ...HELPDESK_POLICY,
  },
  nodes: [
    ticketNode(
      "The ticket; closed tickets keep their priority",
      (t) =>
        t.status === "closed"
          ? [{ field: "ticket_id", code: "ticket_closed", message: "The ticket is closed; reopen it first" }]
          : [],
      // Priority matters for work still to do: open and pending before resolved.
      { rank: { says: "open and pending before resolved", of: (t) => (t.status === "resolved" ? 1 : 0) } },
      (t, values) => (values.priority === t.priority ? `already ${t.priority}` : null),
    ),
    {
      id: "PRIORITY",
      description: "The new priority",
      fields: {
        priority: z.enum(["low", "normal", "high", "urgent"]).describe("low | normal | high | urgent"),
      },
      scales: {
        priority: {
          order: ["low", "normal", "high", "urgent"],
          up: [
            "raise",
            "escalate",
            "increase",
            "upgrade",
            "higher",
            "elevate",
            "bump up",
            "move up",
            "push up",
            "more urgent",
            "more important",
            "提高",
            "调高",
            "升级",
            "上调",
          ],
          down: [
            "lower",
            "reduce",
            "decrease",
            "downgrade",
            "deprioritize",
            "deprioritise",
            "de-escalate",
            "de-prioritize",
            "drop",
            "down",
            "less",
            "降低",
            "调低",
            "降级",
            "下调",
          ],
        },
      },
      async resolve({ values, derived }) {
        const ticket = derived.ticket;
        if (!ticket) return {}; // TICKET stops the action until it has one
        const p = values.priority as TicketPriority | undefined;
        if (p && p === ticket.priority)
          return {
            errors: [
              {
                field: "priority",
                code: "same_priority",
                message: `The ticket is already ${p}`,
                already: true,
              },
            ],
          };
        return { options: { current_priority: ticket.priority } };
      },
    },
    { id: "CONFIRM_PRIORITY", description: "Change the priority", requiresConfirmation: true },
  ],
  summarize: ({ values, derived }) => {
    const ticket = derived.ticket;
    return withShown(
      { ...ticketSummary(ticket), from_priority: ticket.priority, to_priority: values.priority },
      helpdeskSummary("Change the ticket's priority"),
    );
  },
  effect: {
    kind: "helpdesk.priority",
    description: "Change the ticket's priority",
    execute: ({ adapter, values, derived, actionKey, attempts, timeoutMs }) =>
      patchTicket(adapter, derived.ticket.id, { priority: values.priority as TicketPriority }, actionKey, {
        attempts,
        timeoutMs,
      }),
    verify: ({ adapter, values, derived }) =>
      verifyTicket(adapter, derived.ticket.id, { priority: values.priority }),
  },
});
