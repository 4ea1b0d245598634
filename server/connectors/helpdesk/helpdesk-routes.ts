import type { BackendOutcome } from "../sdk/browse-backend";
import { capabilityFormRoute } from "../sdk/capability-form-route";
import type { FilterSpec, RouteDefinition } from "../sdk/define-route";
import { withFormFields } from "../sdk/form-links";
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
import { listTickets, teamChoices, teammates } from "./helpdesk-records";
import { raisedInsteadLine } from "./scoped-tickets";
import { withEarlierCommentsLine } from "./ticket-comment-rows";
import { TICKET_COMMENTS_ROUTE } from "./ticket-comments-route";

function ticketFormLinks(id: string, view: BackendOutcome): Array<[string, string]> {
  const capabilities = new Set(
    (view.next_actions ?? [])
      .map((n) => (n.args && typeof n.args.capability === "string" ? n.args.capability : undefined))
      .filter(Boolean) as string[],
  );
  const all: Array<[string, string, string]> = [
    ["assign_ticket", "Assign to a teammate", "assign"],
    ["change_ticket_priority", "Change priority", "priority"],
    ["resolve_ticket", "Resolve", "resolve"],
    ["reopen_ticket", "Reopen", "reopen"],
    ["comment_ticket", "Add a comment", "comment"],
  ];
  return all
    .filter(([cap]) => capabilities.has(cap))
    .map(([, label, path]) => [label, `helpdesk://ticket/${id}/${path}`]);
}

/**
 * The ticket statuses of the legacy API (API.md), its teams (by name, read when a search names
 * one), who raised a ticket (an email address a search's words hold), and the spellings of the
 * `mine` switch.
 */
const TICKET_FILTERS = {
  status: ["open", "pending", "resolved", "closed"],
  team_id: { choices: teamChoices },
  requester_email: "email address",
  mine: ["1", "true", "0", "false"],
  sort: ["oldest", "newest", "updated"],
  q: "free text",
} as const satisfies FilterSpec;

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

/** `helpdesk://` routes: tickets, the ticket forms, teammates. */
export const HELPDESK_ROUTES: RouteDefinition[] = [
  {
    pattern: "helpdesk://tickets",
    title: "Tickets",
    description: `Support tickets. Filter with ?status=${TICKET_FILTERS.status.join("|")}, ?team_id=, ?requester_email= (who raised it), ?mine=1 for tickets assigned to me, ?q= to search; ?sort=oldest|newest by creation (default: last updated first).`,
    keywords: ["tickets", "support", "helpdesk", "assigned to me", "my tickets", "open tickets", "工单"],
    startPoint: true,
    example: "helpdesk://tickets?mine=1",
    filters: TICKET_FILTERS,
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
        team_id: filterValue(match.uri, "team_id"),
        requester_email: filterValue(match.uri, "requester_email"),
        mine: mine === "1" || mine === "true",
        q: filterValue(match.uri, "q"),
      });
      const page = listPage(
        "Tickets",
        match.uri,
        result,
        ["id", "subject", "status", "priority", "assignee_id", "team_id", "created_at"],
        (row) => `helpdesk://ticket/${row.id}`,
        sort.says,
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
      return withEarlierCommentsLine(view, (shown) => viewPage("ticket", id, shown, forms));
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
        "comment",
        "comment_ticket",
        "Comment on ticket",
        "Form: add a comment to a ticket, shown to the customer unless marked internal.",
        ["comment", "note", "reply"],
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
    description: "Support teammates and their teams (who tickets can be assigned to).",
    keywords: ["teammates", "team", "agents", "staff", "who", "assignee"],
    startPoint: true,
    async render(_match, backend) {
      const result = await teammates(backend);
      if (isOutcome(result)) return outcomePage("Teammates", result);
      return {
        title: "Teammates",
        outcome: "applied",
        markdown: rowsTable(result, ["id", "name", "email", "team_id", "active"]),
      };
    },
  },
];
