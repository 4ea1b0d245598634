import type { BackendOutcome, BrowseBackend, ListPage, Row } from "../sdk/browse-backend";
import type { HelpdeskAdapter } from "./helpdesk-adapter";

/** Rows per list page: small enough that a page stays a few hundred tokens. */
const PAGE_SIZE = 10;

/**
 * Tickets this caller may see. Support and admins see the tenant's; members, and people who are
 * not helpdesk teammates asking for "mine", see the tickets they raised themselves.
 */
export function listTickets(
  backend: BrowseBackend,
  input: { page: number; perPage?: number; status?: string; mine?: boolean; q?: string },
): Promise<ListPage<Row> | BackendOutcome> {
  return backend.withAdapter<HelpdeskAdapter, ListPage<Row>>("helpdesk", async (helpdesk) => {
    const who = backend.who();
    const email = who.userEmail.toLowerCase();
    const isStaff = who.role === "admin" || who.role === "support";
    let assignee: string | undefined;
    if (input.mine) {
      const teammates = await helpdesk.teammates();
      assignee = teammates.find((t) => t.email.toLowerCase() === email)?.id;
    }
    const result = await helpdesk.tickets({
      status: input.status,
      q: input.q,
      assignee_id: assignee,
      page: input.page,
      per_page: input.perPage ?? PAGE_SIZE,
    });
    let data = result.data as unknown as Row[];
    const ownOnly = !isStaff || (input.mine && !assignee);
    if (ownOnly) data = data.filter((t) => String(t.requester_email ?? "").toLowerCase() === email);
    return {
      data,
      page: input.page,
      next_page: ownOnly ? null : result.next_page,
      total: ownOnly ? data.length : result.total,
    };
  });
}

export function teammates(backend: BrowseBackend): Promise<Row[] | BackendOutcome> {
  return backend.withAdapter<HelpdeskAdapter, Row[]>(
    "helpdesk",
    async (helpdesk) => (await helpdesk.teammates()) as unknown as Row[],
  );
}
