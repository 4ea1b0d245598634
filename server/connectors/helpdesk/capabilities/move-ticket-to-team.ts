import { z } from "zod";
import { withShown } from "../../sdk/decision-summary";
import { defineCapability } from "../../sdk/define-capability";
import type { HelpdeskAdapter, HelpdeskTeam, HelpdeskTeammate } from "../helpdesk-adapter";
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
 * The team it goes to, and the assignee it keeps. A ticket's assignee is one of its team (every
 * seeded ticket's is; assign_ticket asks an admin for anyone else): one not on the new team
 * stays with the old one, so the ticket goes to the new team unassigned, said in the summary.
 */
type MoveDerived = TicketDerived & { team: HelpdeskTeam; assignee: HelpdeskTeammate | null; keeps: boolean };

export const moveTicketToTeam = defineCapability<HelpdeskAdapter, MoveDerived>({
  id: "move_ticket_to_team",
  connector: "helpdesk",
  title: "Move ticket to team",
  description:
    "Moves one open or pending ticket to another team's queue. An assignee not on that team is removed (the ticket arrives unassigned). Needs an admin's approval.",
  trigger: {
    use: "A support operator wants a ticket handled by another team (move, transfer or route it to the billing or shipping team).",
    avoid: "Not for giving a ticket to one teammate (assign_ticket), nor for resolved or closed tickets.",
  },
  synonyms: [
    "move to team",
    "transfer to team",
    "route to team",
    "other team",
    "another team",
    "team",
    "queue",
    "change team",
    "转到其他组",
    "转组",
    "换组",
  ],
  appliesTo: { entity: "Ticket", field: "ticket_id" },
  prerequisites: ["an open or pending ticket", "another team"],
  sideEffects: ["changes the ticket's team", "removes an assignee who is not on the new team"],
  policy: {
    effect: "write",
    permission: "helpdesk.ticket.move",
    // As assign_ticket across teams: moving work to another team is that team's lead's call, not
    // the requester's, so an admin decides (the demo has no team-lead role). Every move is one.
    approval: "always",
    approvers: { subject: false, roles: ["admin"] },
    ...HELPDESK_POLICY,
  },
  nodes: [
    ticketNode(
      "The ticket; only open or pending tickets move between teams",
      openTicketOnly("reopen it before moving it"),
      { listing: "helpdesk://tickets?status=open" },
      (t, values) =>
        typeof values.team_id === "string" && values.team_id === t.team_id ? "already on that team" : null,
    ),
    {
      id: "TEAM",
      description: "The team it goes to",
      fields: {
        team_id: z.string().trim().min(1).max(64).describe("Team id from options.teams, e.g. shipping"),
      },
      async resolve({ adapter, values, derived }) {
        const ticket = derived.ticket;
        if (!ticket) return {}; // TICKET stops the action until it has one
        const teams = await adapter.teams();
        // The teams it can go to: every one but its own.
        const options = {
          teams: teams.filter((t) => t.id !== ticket.team_id).map((t) => ({ id: t.id, name: t.name })),
        };
        const id = values.team_id as string | undefined;
        if (!id) return { options };
        if (id === ticket.team_id)
          return {
            options,
            errors: [
              {
                field: "team_id",
                code: "same_team",
                message: `The ticket is already on ${id}`,
                already: true,
              },
            ],
          };
        const team = teams.find((t) => t.id === id);
        if (!team)
          return { options, errors: [{ field: "team_id", code: "unknown_team", message: `No team ${id}` }] };
        const assignee = ticket.assignee_id
          ? ((await adapter.teammates()).find((m) => m.id === ticket.assignee_id) ?? null)
          : null;
        return { options, derived: { team, assignee, keeps: assignee?.team_id === team.id } };
      },
    },
    { id: "CONFIRM_MOVE", description: "Move the ticket", requiresConfirmation: true },
  ],
  summarize: ({ derived }) => {
    const { ticket, team, assignee, keeps } = derived;
    return withShown(
      {
        ...ticketSummary(ticket),
        from_team: ticket.team_id,
        to_team: team.id,
        from_assignee: ticket.assignee_id,
        // Said either way: the assignee a move removes is no surprise after it.
        to_assignee: keeps
          ? ticket.assignee_id
          : assignee
            ? `none (${assignee.name} is not on ${team.name})`
            : null,
      },
      helpdeskSummary("Move the ticket to another team"),
    );
  },
  effect: {
    kind: "helpdesk.team",
    description: "Move the ticket to another team",
    execute: ({ adapter, derived, actionKey, attempts, timeoutMs }) =>
      patchTicket(
        adapter,
        derived.ticket.id,
        derived.keeps ? { team_id: derived.team.id } : { team_id: derived.team.id, assignee_id: null },
        actionKey,
        { attempts, timeoutMs },
      ),
    verify: ({ adapter, derived }) =>
      verifyTicket(
        adapter,
        derived.ticket.id,
        derived.keeps ? { team_id: derived.team.id } : { team_id: derived.team.id, assignee_id: null },
      ),
  },
});
