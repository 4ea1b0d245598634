import { defaultLegacyUrl } from "../default-legacy-url";
import type { BrowseBackend } from "../sdk/browse-backend";
import { defineConnector, type RecordQuery } from "../sdk/define-connector";
import { bearerHealthCheck } from "../sdk/http-client";
import { escapeText, link } from "../sdk/markdown";
import { moreRecordsLine, RECORDS_SHOWN } from "../sdk/more-records-line";
import { textTokens } from "../sdk/words-search";
import { assignTicket } from "./capabilities/assign-ticket";
import { changeTicketPriority } from "./capabilities/change-ticket-priority";
import { closeTicket } from "./capabilities/close-ticket";
import { commentTicket } from "./capabilities/comment-ticket";
import { moveTicketToTeam } from "./capabilities/move-ticket-to-team";
import { reopenTicket } from "./capabilities/reopen-ticket";
import { resolveTicket } from "./capabilities/resolve-ticket";
import { setTicketStatus } from "./capabilities/set-ticket-status";
import { unassignTicket } from "./capabilities/unassign-ticket";
import { createHelpdeskAdapter, type HelpdeskAdapter } from "./helpdesk-adapter";
import { listTickets, teammates } from "./helpdesk-records";
import { HELPDESK_ROUTES } from "./helpdesk-routes";
import { raisedInsteadLine } from "./scoped-tickets";
import { TICKET_FORM_URIS } from "./ticket-form-links";
import { ticketView } from "./ticket-view";

/** Words that say "tickets" rather than what a ticket is about. */
const GENERIC = ["ticket", "assigned", "support", "helpdesk", "open"];

/** Whether a record search looks through tickets at all: topic words, "my" or "ticket". */
const searchesTickets = ({ words, mine }: RecordQuery) =>
  mine || words.includes("ticket") || words.some((w) => !GENERIC.includes(w));

/** The tickets listing a record search looks through: the caller's own ("my") or open ones, or all. */
function searchedTickets(query: RecordQuery): string[] {
  if (!searchesTickets(query)) return [];
  const filters = [query.mine ? "mine=1" : "", query.words.includes("open") ? "status=open" : ""].filter(
    Boolean,
  );
  return [`helpdesk://tickets${filters.length ? `?${filters.join("&")}` : ""}`];
}

/** Tickets the query is about: its words matched in their text, among the caller's own ("my") or open ones. */
async function searchHelpdesk(query: RecordQuery, backend: BrowseBackend): Promise<string[]> {
  const { words, mine } = query;
  const topical = words.filter((w) => !GENERIC.includes(w));
  if (!searchesTickets(query)) return [];
  const tickets = await listTickets(backend, {
    page: 1,
    mine: mine || undefined,
    status: words.includes("open") ? "open" : undefined,
    // "my parcel" is my tickets about a parcel, never all of mine.
    q: topical.length ? topical.join(" ") : undefined,
  });
  const people = topical.length ? await teammatesNamed(backend, topical) : [];
  if ("outcome" in tickets) return people;
  const lines = tickets.data
    .slice(0, RECORDS_SHOWN)
    .map(
      (t) =>
        `- ${link(`Ticket ${t.id}: ${String(t.subject ?? "")}`, `helpdesk://ticket/${t.id}`)} — ${escapeText(t.status)}`,
    );
  const found = tickets.total ?? tickets.data.length;
  const [listing = "helpdesk://tickets"] = searchedTickets(query);
  const more = found > RECORDS_SHOWN ? [moreRecordsLine(found, "tickets", listing, "Tickets")] : [];
  // "my …" read as the tickets they raised says so above them, in the first hit (shown only
  // with it); none found: the search says none.
  const [first, ...rest] = lines;
  if (!tickets.raisedInstead || !first) return [...lines, ...more, ...people];
  return [`- ${raisedInsteadLine(lines.length)}\n${first}`, ...rest, ...more, ...people];
}

/**
 * The teammates a search's words name (a first name or an email's own part), for
 * a caller who may read the teammates page: set CO's "Sara" found no record, and the model opened
 * the assign form to learn her id. Each line links to that page, so it shows only where it may.
 */
async function teammatesNamed(backend: BrowseBackend, words: readonly string[]): Promise<string[]> {
  // A preview: a search never uses up a grant the person gave for one visit to the page.
  if ((await backend.authorize("navigate", "helpdesk://teammates", { preview: true })).decision !== "allow")
    return [];
  const people = await teammates(backend);
  if (!Array.isArray(people)) return [];
  return people
    .filter((t) => {
      // The first name and the address's own part: "Sara Shipping"'s team word names no one.
      const own = textTokens(`${t.name.split(/\s+/)[0] ?? ""} ${t.email.split("@")[0] ?? ""}`);
      return words.some((w) => own.includes(w));
    })
    .slice(0, RECORDS_SHOWN)
    .map(
      (t) =>
        `- ${link(`Teammate ${t.id}: ${t.name}`, "helpdesk://teammates")} — team ${escapeText(t.team_id)}${t.active ? "" : ", inactive"}`,
    );
}

/** The demo helpdesk: tickets, teammates and the narrow ticket changes. */
export const helpdeskConnector = defineConnector<HelpdeskAdapter>({
  id: "helpdesk",
  title: "Helpdesk",
  scheme: "helpdesk",
  description: "Support tickets, their assignees and teams, and the changes a ticket allows.",
  secrets: [{ name: "api_key", description: "The helpdesk API's key (Bearer)" }],
  createAdapter: ({ baseUrl, secrets }) => createHelpdeskAdapter({ baseUrl, apiKey: secrets.api_key ?? "" }),
  healthPath: "/health",
  defaultBaseUrl: defaultLegacyUrl,
  checkConnection: bearerHealthCheck("/v1/health"),
  capabilities: [
    assignTicket,
    changeTicketPriority,
    resolveTicket,
    reopenTicket,
    closeTicket,
    commentTicket,
    setTicketStatus,
    moveTicketToTeam,
    unassignTicket,
  ],
  entities: [
    {
      name: "ticket",
      label: "Ticket",
      idPrefix: "tkt_",
      uri: (id) => `helpdesk://ticket/${id}`,
      // Members reach their own tickets through the listing; the view is staff work.
      roles: ["admin", "support"],
      view: (adapter, _actor, id) => ticketView(adapter, id),
    },
  ],
  routes: HELPDESK_ROUTES,
  // What tickets are about: these words name the entity, not the change asked for.
  searchTopics: ["ticket", "case", "customer", "工单", "客户"],
  searchSynonyms: {
    hand: ["assign"],
    give: ["assign"],
    owner: ["assign"],
    teammat: ["assign"],
    escal: ["priorit", "urgent"],
    urgent: ["priorit"],
    import: ["priorit"],
    close: ["resolv"],
    solv: ["resolv"],
    fix: ["resolv"],
    done: ["resolv"],
    again: ["reopen"],
    unresolv: ["reopen"],
  },
  forms: TICKET_FORM_URIS,
  searchRecords: searchHelpdesk,
  searchedListings: searchedTickets,
});
