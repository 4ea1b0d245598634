import type { BackendOutcome, BrowseBackend, Row } from "../sdk/browse-backend";
import { capabilityFormRoute } from "../sdk/capability-form-route";
import type { FilterSpec, RouteDefinition } from "../sdk/define-route";
import { withFormFields } from "../sdk/form-links";
import { statusLifecycle } from "../sdk/record-events";
import {
  askedColumnNames,
  labelledValue,
  type ReferenceNames,
  referenceLabels,
} from "../sdk/reference-labels";
import { rowsTable } from "../sdk/render-helpers";
import {
  filterValue,
  invalidFilterPage,
  isOutcome,
  listPage,
  outcomePage,
  pageNumber,
  perPage,
  viewPage,
} from "../sdk/route-pages";
import {
  assigneeChoices,
  helpdeskReferences,
  listTickets,
  requesterChoices,
  teamChoices,
  teammates,
} from "./helpdesk-records";
import { raisedInsteadLine } from "./scoped-tickets";
import { COUNTED_STATUSES, teammateTicketCounts } from "./teammate-ticket-counts";
import { withCommentsLine } from "./ticket-comment-rows";
import { TICKET_COMMENTS_ROUTE } from "./ticket-comments-route";
import { ticketFormLinks } from "./ticket-form-links";

/**
 * The ticket page names its assignee on the `assignee_id` line, "Bella Billing (`tm_bella`)", as
 * listings do; the view's `assignee` object said the same id again with the name (the view keeps it).
 */
function withAssigneeNamed(view: BackendOutcome): BackendOutcome {
  const ticket = view.view as Row | undefined;
  const mate = ticket?.assignee as { id?: unknown; name?: unknown } | null | undefined;
  if (!ticket || !("assignee" in ticket)) return view;
  const { assignee: _named, ...rest } = ticket;
  const names =
    mate && typeof mate.id === "string" && typeof mate.name === "string"
      ? new Map([[mate.id, mate.name]])
      : undefined;
  return { ...view, view: { ...rest, assignee_id: labelledValue(rest.assignee_id, names) } };
}

/**
 * The ticket statuses and priorities of the legacy API (API.md), its teams and assignees (by
 * name, read when a search names one; `none` for nobody), who raised a ticket (an email address
 * a search's words hold, or a word of one before its `@`: "Alice's tickets"), and the spellings
 * of the `mine` switch.
 */
const TICKET_FILTERS = {
  status: ["open", "pending", "resolved", "closed"],
  priority: ["low", "normal", "high", "urgent"],
  assignee_id: { choices: assigneeChoices, valuesAre: ["teammate", "agent"] },
  // Set CP: "open tickets in each category" searched the text for "category"; a ticket's team is
  // the queue it is sorted into, what people count tickets by as a category.
  team_id: { choices: teamChoices, valuesAre: ["category", "queue", "department"] },
  requester_email: { choices: requesterChoices, emailAddresses: true },
  mine: ["1", "true", "0", "false"],
  sort: ["oldest", "newest", "updated"],
  q: "free text",
} as const satisfies FilterSpec;

/** What people call the statuses a listing filters by (filter-words.ts reads them). */
const TICKET_STATUS_WORDS = {
  // "unresolved" names both open and pending (played: "the oldest unresolved ticket" searched the
  // word as text and found nothing): two values of one filter keep both (left-out-rows.ts).
  status: {
    open: ["unresolved"],
    pending: ["on hold", "waiting on the customer", "awaiting the customer", "unresolved"],
  },
};

/**
 * What a ticket went through: a closed ticket was resolved first (close_ticket takes only a
 * resolved one), so "not resolved yet" leaves the closed ones out too (set AW kept a closed
 * ticket among Alice's unresolved ones). Pending is set aside from open, never past resolved.
 */
const TICKET_LIFECYCLE = statusLifecycle("status", ["open", "resolved", "closed"], { pending: "open" });

/**
 * Each `?sort=` of the listing: the legacy API's order and the line that states it. The default
 * line names the others: round 3's model read "most recently updated first" for "the oldest
 * ticket" and spent calls re-reading every ticket.
 */
const TICKET_SORT = {
  updated: {
    api: "-updated_at",
    says: "Most recently updated first (?sort=oldest or ?sort=newest orders by created_at)",
  },
  oldest: { api: "created_at", says: "Oldest first, by created_at" },
  newest: { api: "-created_at", says: "Newest first, by created_at" },
} as const;

/** Whether the caller reads only the tickets they raised (scopedTickets' rule for who is not staff). */
function ownTicketsOnly(backend: BrowseBackend): boolean {
  const { role } = backend.who();
  return role !== "admin" && role !== "support";
}

/** `helpdesk://` routes: tickets, the ticket forms, teammates. */
export const HELPDESK_ROUTES: RouteDefinition[] = [
  {
    pattern: "helpdesk://tickets",
    title: "Tickets",
    description: `Support tickets. Filter with ?status=${TICKET_FILTERS.status.join("|")}, ?priority=${TICKET_FILTERS.priority.join("|")}, ?assignee_id= (a teammate, or none), ?team_id=, ?requester_email= (who raised it), ?mine=1 for tickets assigned to me, ?q= to search; ?sort=oldest|newest by creation (default: last updated first).`,
    // Who "handled" a ticket is its assignee column (set CI: "by whom were they handled" searched
    // the tickets' text for "handled" and found none).
    keywords: [
      "tickets",
      "support",
      "helpdesk",
      "assigned to me",
      "my tickets",
      "open tickets",
      "handled",
      "工单",
    ],
    startPoint: true,
    example: "helpdesk://tickets?mine=1",
    filters: TICKET_FILTERS,
    valueWords: TICKET_STATUS_WORDS,
    lifecycle: TICKET_LIFECYCLE,
    textSearches: "subjects and descriptions of tickets",
    async render(match, backend) {
      const invalid = invalidFilterPage("Tickets", match.uri, TICKET_FILTERS);
      if (invalid) return invalid;
      const mine = filterValue(match.uri, "mine");
      const sort = TICKET_SORT[(filterValue(match.uri, "sort") ?? "updated") as keyof typeof TICKET_SORT];
      const result = await listTickets(backend, {
        sort: sort.api,
        page: pageNumber(match.uri),
        perPage: perPage(match.uri),
        status: filterValue(match.uri, "status"),
        priority: filterValue(match.uri, "priority"),
        assignee_id: filterValue(match.uri, "assignee_id"),
        team_id: filterValue(match.uri, "team_id"),
        requester_email: filterValue(match.uri, "requester_email"),
        mine: mine === "1" || mine === "true",
        q: filterValue(match.uri, "q"),
      });
      const columns = [
        "id",
        "subject",
        "status",
        "priority",
        "assignee_id",
        "team_id",
        "created_at",
      ] as const;
      const references = isOutcome(result)
        ? {}
        : await referenceLabels(
            result.data,
            [...columns, ...askedColumnNames(match.uri.query.columns)],
            helpdeskReferences(backend),
          );
      const page = listPage(
        "Tickets",
        match.uri,
        result,
        [...columns],
        (row) => `helpdesk://ticket/${row.id}`,
        // Whose tickets every row is, where the caller sees only those they raised (staff see
        // the tenant's, never called "yours"; a "mine" read as raised says so in its own line).
        ownTicketsOnly(backend) && !(!isOutcome(result) && result.raisedInstead)
          ? `Tickets you raised. ${sort.says}`
          : sort.says,
        undefined,
        { references, mainText: "description" },
      );
      // "mine" read as the tickets they raised is said first, whatever the rows: never silently.
      if (isOutcome(result) || !result.raisedInstead) return page;
      return { ...page, markdown: `${raisedInsteadLine(result.data.length)}\n\n${page.markdown}` };
    },
  },
  {
    pattern: "helpdesk://ticket/{id}",
    title: "Ticket",
    description:
      "One ticket: status, priority, assignee and team, its newest comments, and the actions that apply now.",
    keywords: ["ticket", "support request"],
    async render(match, backend) {
      const id = match.params.id ?? "";
      const view = await backend.entityView("ticket", id);
      const forms = await withFormFields(backend, ticketFormLinks(id, view));
      return withCommentsLine(withAssigneeNamed(view), (shown) => viewPage("ticket", id, shown, forms));
    },
  },
  TICKET_COMMENTS_ROUTE,
  ...(
    [
      [
        "assign",
        "assign_ticket",
        "Assign ticket",
        "Form: give one open ticket to an eligible teammate (another team needs approval).",
        ["assign", "hand over", "give to", "owner", "转派", "分配"],
      ],
      [
        "priority",
        "change_ticket_priority",
        "Change priority",
        "Form: set a ticket's priority (low, normal, high, urgent).",
        ["priority", "urgent", "escalate"],
      ],
      [
        "resolve",
        "resolve_ticket",
        "Resolve ticket",
        "Form: resolve a ticket with a resolution.",
        ["resolve", "close", "done", "fixed"],
      ],
      [
        "reopen",
        "reopen_ticket",
        "Reopen ticket",
        "Form: reopen a resolved or closed ticket.",
        ["reopen", "again", "unresolved"],
      ],
      [
        "close",
        "close_ticket",
        "Close ticket",
        "Form: close a resolved ticket, keeping its resolution.",
        ["close", "archive"],
      ],
      [
        "comment",
        "comment_ticket",
        "Comment on ticket",
        "Form: add a comment to a ticket, shown to the customer unless marked internal.",
        ["comment", "note", "reply"],
      ],
      [
        "status",
        "set_ticket_status",
        "Set ticket status",
        "Form: set an open or pending ticket to open or pending (on hold).",
        ["status", "pending", "on hold"],
      ],
      [
        "team",
        "move_ticket_to_team",
        "Move ticket to team",
        "Form: move a ticket to another team's queue (an admin approves).",
        ["team", "move", "transfer"],
      ],
      [
        "unassign",
        "unassign_ticket",
        "Unassign ticket",
        "Form: take a ticket off its assignee, back to its team's queue (the user approves).",
        ["unassign", "queue"],
      ],
    ] as Array<[string, string, string, string, string[]]>
  ).map(([path, capability, title, description, keywords]) =>
    capabilityFormRoute(
      { pattern: `helpdesk://ticket/{id}/${path}`, title, description, keywords },
      {
        capability,
        entity: { name: "ticket", param: "id" },
        back: (p) => ({ label: `Back to ticket ${p.id}`, uri: `helpdesk://ticket/${p.id}` }),
      },
    ),
  ),
  {
    pattern: "helpdesk://teammates",
    title: "Teammates",
    description:
      "Support teammates and their teams (who tickets can be assigned to), with how many tickets each has by status.",
    keywords: ["teammates", "team", "agents", "staff", "who", "assignee"],
    startPoint: true,
    async render(_match, backend) {
      const result = await teammates(backend);
      if (isOutcome(result)) return outcomePage("Teammates", result);
      const columns = ["id", "name", "email", "team_id", "active"];
      const { team_id: teams } = await referenceLabels(result, columns, {
        team_id: helpdeskReferences(backend).team_id as ReferenceNames,
      });
      const tally = await teammateTicketCounts(backend, result);
      const rows = result.map((m) => ({
        ...m,
        team_id: labelledValue(m.team_id, teams),
        ...(tally?.counts.get(m.id) ?? {}),
      }));
      const shown = tally ? [...columns, ...COUNTED_STATUSES] : columns;
      return {
        title: "Teammates",
        outcome: "applied",
        markdown: `${tally ? `${tally.line}\n\n` : ""}${rowsTable(rows, shown)}`,
      };
    },
  },
];
