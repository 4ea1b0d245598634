import type { Actor } from "../sdk/define-capability";
import { type OrderKey, orderedRows } from "../sdk/ordered-rows";
import type { ValidationError } from "../sdk/outcome";
import { labelledValue } from "../sdk/reference-labels";
import type { HelpdeskAdapter, HelpdeskTicket, TicketPriority } from "./helpdesk-adapter";
import { scopedTickets } from "./scoped-tickets";

/** How a ticket capability orders the tickets it offers, and where the agent finds the rest. */
export interface TicketChoice {
  /**
   * Among tickets the capability can act on, lower first (assign: unassigned ones first), and
   * the words the list's heading says it in ("unassigned first").
   */
  rank?: { says: string; of: (ticket: HelpdeskTicket) => number };
  /** The listing page with the tickets this capability is most often about. */
  listing?: string;
}

/** How many tickets the TICKET node offers when none is named (the text shows fewer). */
const CANDIDATES = 10;
/** How many recently updated tickets are ranked: the legacy API's largest page, one call. */
const WINDOW = 100;
/** A subject is the customer's words: one short line of them is enough to tell tickets apart. */
const SUBJECT_CHARS = 60;
/** A description's first words, for the user's words to match (a short value is read as words). */
const DESCRIPTION_CHARS = 80;

const URGENCY: Record<TicketPriority, number> = { urgent: 0, high: 1, normal: 2, low: 3 };

/**
 * The tickets the caller may act on, most relevant first for this capability: the ones it can
 * act on before the ones it cannot, then the capability's own order, the more urgent, the more
 * recently updated. Each says what the capability can do for it, from the node's own check.
 */
export async function ticketCandidates(
  adapter: HelpdeskAdapter,
  actor: Actor,
  check: (ticket: HelpdeskTicket) => ValidationError[],
  choice: TicketChoice = {},
  forWords = false,
): Promise<Record<string, unknown>> {
  const [window, names] = await Promise.all([
    scopedTickets(adapter, actor, { page: 1, perPage: WINDOW }),
    // Read to match the user's words, the rows are never shown: no names to look up for them.
    forWords ? NO_NAMES : referenceNames(adapter),
  ]);
  type Checked = { ticket: HelpdeskTicket; errors: ValidationError[] };
  const rank = choice.rank;
  // The order and the heading that states it come from these same keys (ordered-rows.ts).
  const keys: OrderKey<Checked>[] = [
    {
      says: "those it can act on first",
      compare: (a, b) => Number(a.errors.length > 0) - Number(b.errors.length > 0),
    },
    ...(rank
      ? [{ says: rank.says, compare: (a: Checked, b: Checked) => rank.of(a.ticket) - rank.of(b.ticket) }]
      : []),
    { says: "more urgent", compare: (a, b) => URGENCY[a.ticket.priority] - URGENCY[b.ticket.priority] },
    { says: "recently updated", compare: (a, b) => b.ticket.updated_at.localeCompare(a.ticket.updated_at) },
  ];
  const ordered = orderedRows(
    window.data.map((ticket) => ({ ticket, errors: check(ticket) })),
    keys,
    forWords ? WINDOW : CANDIDATES,
  );
  const tickets = ordered.rows.map(({ ticket, errors }) => ({
    ...ticketCandidate(ticket, names),
    // Read only to match the user's words, never shown (the node's lookup): "the ticket about
    // the SAVE5 coupon" names the one whose description says SAVE5, whatever its subject says.
    ...(forWords ? { description: oneLine(ticket.description, DESCRIPTION_CHARS) } : {}),
    possible: errors.map((e) => e.message).join("; ") || "yes",
  }));
  if (forWords) return tickets.length ? { tickets } : {};
  if (!tickets.length) return {};
  const more = window.total > tickets.length;
  const base = choice.listing ?? "helpdesk://tickets";
  const listing = `${base}${base.includes("?") ? "&" : "?"}q=`;
  return {
    tickets,
    ...(ordered.says ? { order_of: { tickets: ordered.says } } : {}),
    ...(more ? { more_tickets: `name the ticket in ticket_id by its subject's words, or ${listing}` } : {}),
  };
}

/** Teammates' and teams' names by id; none when the helpdesk cannot say now (the ids then stand). */
async function referenceNames(adapter: HelpdeskAdapter): Promise<ReferenceMaps> {
  const byId = (rows: Array<{ id: string; name: string }>) => new Map(rows.map((r) => [r.id, r.name]));
  const [mates, teams] = await Promise.all([
    adapter.teammates().then(byId, () => new Map<string, string>()),
    adapter.teams().then(byId, () => new Map<string, string>()),
  ]);
  return { mates, teams };
}
type ReferenceMaps = { mates: ReadonlyMap<string, string>; teams: ReadonlyMap<string, string> };
const NO_NAMES: ReferenceMaps = { mates: new Map(), teams: new Map() };

/**
 * One line's worth of a ticket: enough to tell the caller's tickets apart and pick one. Its
 * assignee and team as `{value, label}` where the name says more than the id (reference-labels.ts):
 * the text reads "Bella Billing (tm_bella)", so "who handles the refund ticket" is answered from
 * the offered rows, and `value` is the id to send. A name is not read as the ticket's words (a
 * teammate "Sid Shipping" would make "the shipping ticket" fit every ticket Sid has).
 */
function ticketCandidate(ticket: HelpdeskTicket, names: ReferenceMaps) {
  // Newlines or runs of spaces from the customer would break the one-line rendering.
  return {
    id: ticket.id,
    subject: oneLine(ticket.subject, SUBJECT_CHARS),
    status: ticket.status,
    priority: ticket.priority,
    assignee: ticket.assignee_id ? labelledValue(ticket.assignee_id, names.mates) : "unassigned",
    team: ticket.team_id ? labelledValue(ticket.team_id, names.teams) : "none",
    // "The oldest open ticket" is a question about this (the start reads it too); shown to the
    // minute with how long ago.
    created: ticket.created_at,
  };
}

/** Text on one line, cut to `chars` with an ellipsis (newlines and runs of spaces would break a row). */
function oneLine(text: string, chars: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > chars ? `${line.slice(0, chars - 1)}…` : line;
}
