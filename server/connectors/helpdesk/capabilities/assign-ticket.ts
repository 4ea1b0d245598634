import { z } from "zod";
import { withShown } from "../../sdk/decision-summary";
import { defineCapability } from "../../sdk/define-capability";
import { everyTeammate } from "../every-teammate";
import type { HelpdeskAdapter, HelpdeskTeammate } from "../helpdesk-adapter";
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
 * The teammate list's heading: its order and who is left out of it, by name (set X: "1 inactive
 * teammate left out" sent a model searching for Bruno, to learn he was the one).
 */
export function teammatesHeading(
  all: HelpdeskTeammate[],
  assigneeId: string | null | undefined,
  callerEmail?: string,
): string {
  const inactive = all.filter((m) => !m.active && m.id !== assigneeId).map((m) => m.name);
  const assignee = assigneeId ? all.find((m) => m.id === assigneeId) : undefined;
  // The caller who is no teammate cannot take a ticket: said, so "take it myself" is answered
  // (set AP: models opened the teammates page and the start page to learn it).
  const notOne =
    callerEmail && !all.some((m) => m.email.toLowerCase() === callerEmail.toLowerCase())
      ? `you (${callerEmail}) are no teammate, so cannot be assigned`
      : "";
  const out = [
    inactive.length ? `inactive (${inactive.join(", ")})` : "",
    assignee ? `the current assignee (${assignee.name})` : "",
  ].filter(Boolean);
  if (notOne)
    return `the ticket's team first${out.length ? `; ${out.join(" and ")} left out` : ""}; ${notOne}`;
  return `the ticket's team first${out.length ? `; ${out.join(" and ")} left out` : ""}`;
}

export const assignTicket = defineCapability<HelpdeskAdapter, TicketDerived & { assignee: HelpdeskTeammate }>(
  {
    id: "assign_ticket",
    connector: "helpdesk",
    title: "Assign ticket",
    description:
      "Assigns one open support ticket to one eligible (active) teammate. Does not change status, priority or messages. Assigning to someone on another team needs approval.",
    trigger: {
      use: "An authorized support operator wants a ticket handled by a specific teammate (assign, hand over, reassign).",
      avoid: "Not for closing, resolving, reopening or re-prioritizing a ticket.",
    },
    synonyms: [
      "assign",
      "reassign",
      "hand over",
      "give to",
      "owner",
      "own",
      "route ticket",
      "transfer ticket",
      "分配",
      "指派",
      "转给",
      "转交",
      "交给",
      "工单分配",
    ],
    appliesTo: { entity: "Ticket", field: "ticket_id" },
    prerequisites: ["an open or pending ticket", "an active teammate"],
    sideEffects: ["changes the ticket's assignee"],
    policy: {
      effect: "write",
      permission: "helpdesk.ticket.assign",
      approval: (summary) => summary.cross_team === true,
      approvalWhen: "only when the assignee is on another team than the ticket (an admin decides)",
      // Moving work to another team is that team's lead's call, not the requester's: an admin
      // decides (the demo has no team-lead role).
      approvers: { subject: false, roles: ["admin"] },
      ...HELPDESK_POLICY,
    },
    nodes: [
      ticketNode(
        "The ticket; only open or pending tickets can be assigned",
        openTicketOnly("reopen it before assigning"),
        // Unassigned tickets are the ones waiting for someone.
        {
          rank: { says: "unassigned first", of: (t) => (t.assignee_id ? 1 : 0) },
          listing: "helpdesk://tickets?status=open",
        },
        (t, values) =>
          typeof values.assignee_id === "string" && values.assignee_id.trim().toLowerCase() === t.assignee_id
            ? "already assigned to them"
            : null,
      ),
      {
        id: "ASSIGNEE",
        description: "The teammate to assign; active teammates only",
        fields: {
          assignee_id: z
            .string()
            .trim()
            .min(1)
            .max(64)
            .describe("Teammate id from options.teammates, e.g. tm_sid"),
        },
        lookup: everyTeammate,
        async resolve({ adapter, actor, values, derived }) {
          const ticket = derived.ticket;
          if (!ticket) return {}; // TICKET stops the action until it has one
          const all = await adapter.teammates();
          // Only those who can take it (active, not the current assignee), its own team first:
          // assigning there needs no approval. Compact: one short line each in the text block.
          const options = {
            teammates: all
              .filter((m) => m.active && m.id !== ticket.assignee_id)
              .map((m) => ({
                id: m.id,
                name: m.name,
                team: m.team_id,
                same_team: m.team_id === ticket.team_id,
              }))
              .sort((a, b) => Number(b.same_team) - Number(a.same_team)),
            // Said in the list's heading, so a teammate missing from it is not a mystery; only
            // what is true of this ticket (no "current assignee" left out of an unassigned one).
            order_of: { teammates: teammatesHeading(all, ticket.assignee_id, actor.email) },
          };
          const id = values.assignee_id as string | undefined;
          if (!id) return { options };
          const mate = all.find((m) => m.id === id);
          if (!mate)
            return {
              options,
              errors: [{ field: "assignee_id", code: "unknown_teammate", message: `No teammate ${id}` }],
            };
          if (!mate.active)
            return {
              options,
              errors: [
                {
                  field: "assignee_id",
                  code: "teammate_inactive",
                  message: `${mate.name} is inactive and cannot take tickets`,
                  // The user's choice, not a wrong value: a start given it ends, nothing held.
                  choice_closed: true,
                },
              ],
            };
          if (mate.id === ticket.assignee_id)
            return {
              options,
              errors: [
                {
                  field: "assignee_id",
                  code: "already_assigned",
                  message: `${mate.name} already has this ticket`,
                  already: true,
                },
              ],
            };
          return { options, derived: { assignee: mate } };
        },
      },
      { id: "CONFIRM_ASSIGNMENT", description: "Assign the ticket", requiresConfirmation: true },
    ],
    summarize: ({ derived }) => {
      const ticket = derived.ticket;
      const mate = derived.assignee;
      return withShown(
        {
          ...ticketSummary(ticket),
          from_assignee: ticket.assignee_id,
          to_assignee: mate.id,
          to_assignee_name: mate.name,
          to_team: mate.team_id,
          ticket_team: ticket.team_id,
          cross_team: mate.team_id !== ticket.team_id,
        },
        helpdeskSummary("Assign the ticket"),
      );
    },
    effect: {
      kind: "helpdesk.assignment",
      description: "Assign the ticket",
      execute: ({ adapter, derived, actionKey, attempts, timeoutMs }) =>
        patchTicket(adapter, derived.ticket.id, { assignee_id: derived.assignee.id }, actionKey, {
          attempts,
          timeoutMs,
        }),
      verify: ({ adapter, derived }) =>
        verifyTicket(adapter, derived.ticket.id, {
          assignee_id: derived.assignee.id,
        }),
    },
  },
);
