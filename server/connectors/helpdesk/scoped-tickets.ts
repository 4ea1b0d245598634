import type { HelpdeskAdapter, HelpdeskTicket } from "./helpdesk-adapter";

/** Who is asking, as the gateway established it (never from arguments). */
export interface TicketReader {
  email: string;
  role: "admin" | "support" | "member";
}

/**
 * Tickets this caller may see, one rule for the listing page and the TICKET node's candidates.
 * Support and admins see the tenant's; members, and people who are not helpdesk teammates
 * asking for "mine", see the tickets they raised themselves. The tenant is the adapter's: its
 * key is the tenant's, so another tenant's tickets never come back at all.
 */
export async function scopedTickets(
  helpdesk: HelpdeskAdapter,
  who: TicketReader,
  query: {
    page: number;
    perPage: number;
    status?: string;
    priority?: string;
    /** A teammate's id, or `none`; "mine" names the caller instead. */
    assignee_id?: string;
    team_id?: string;
    requester_email?: string;
    mine?: boolean;
    q?: string;
    sort?: "created_at" | "-created_at" | "-updated_at";
  },
): Promise<{
  data: HelpdeskTicket[];
  next_page: number | null;
  total: number;
  /** "mine" was asked by someone no ticket can be assigned to: these are the tickets they raised. */
  raisedInstead?: true;
}> {
  const email = who.email.toLowerCase();
  const isStaff = who.role === "admin" || who.role === "support";
  let assignee = query.assignee_id;
  if (query.mine) {
    const teammates = await helpdesk.teammates();
    assignee = teammates.find((t) => t.email.toLowerCase() === email)?.id;
  }
  const raisedInstead = query.mine && !assignee;
  const ownOnly = !isStaff || raisedInstead;
  const raised = raisedInstead ? { raisedInstead: true as const } : {};
  // Someone else's tickets asked for by one who sees only their own: none, without asking.
  if (ownOnly && query.requester_email && query.requester_email.toLowerCase() !== email)
    return { data: [], next_page: null, total: 0, ...raised };
  // The caller's own tickets are the API's requester filter, so its pages and totals count only
  // theirs (a page filtered here after the fact counted other people's tickets in its total).
  const result = await helpdesk.tickets({
    status: query.status,
    priority: query.priority,
    team_id: query.team_id,
    requester_email: ownOnly ? email : query.requester_email,
    q: query.q,
    sort: query.sort,
    assignee_id: assignee,
    page: query.page,
    per_page: query.perPage,
  });
  if (!ownOnly) return result;
  // Kept as a guard: were the API to ignore the filter, no one else's ticket is shown.
  const data = result.data.filter((t) => String(t.requester_email ?? "").toLowerCase() === email);
  if (data.length === result.data.length) return { ...result, ...raised };
  return { data, next_page: null, total: data.length, ...raised };
}

/**
 * What a "mine" answer says when the caller is no helpdesk teammate, in one line above the rows:
 * Sam (support, no teammate) read tickets he only raised as assigned to him and spent three
 * calls finding out why; told only "you are not a helpdesk teammate", round 26's model still
 * opened the start page and the teammates to be sure.
 */
export function raisedInsteadLine(count: number): string {
  return count
    ? "No ticket is assigned to you: tickets go to helpdesk teammates, and you are not one (nothing more to look up). These are the tickets you raised."
    : "No ticket is assigned to you: tickets go to helpdesk teammates, and you are not one (nothing more to look up); you raised none.";
}
