import type { BackendOutcome, BrowseBackend, ListPage, Row } from "../sdk/browse-backend";
import type { HelpdeskAdapter } from "./helpdesk-adapter";
import { scopedTickets } from "./scoped-tickets";

/** Rows per list page: small enough that a page stays a few hundred tokens. */
const PAGE_SIZE = 10;

/** Tickets this caller may see (the rule is scopedTickets'), one listing page of them. */
export function listTickets(
  backend: BrowseBackend,
  input: { page: number; perPage?: number; status?: string; mine?: boolean; q?: string },
): Promise<ListPage<Row> | BackendOutcome> {
  return backend.withAdapter<HelpdeskAdapter, ListPage<Row>>("helpdesk", async (helpdesk) => {
    const who = backend.who();
    const result = await scopedTickets(
      helpdesk,
      { email: who.userEmail, role: who.role },
      { ...input, perPage: input.perPage ?? PAGE_SIZE },
    );
    return {
      data: result.data as unknown as Row[],
      page: input.page,
      next_page: result.next_page,
      total: result.total,
    };
  });
}

export function teammates(backend: BrowseBackend): Promise<Row[] | BackendOutcome> {
  return backend.withAdapter<HelpdeskAdapter, Row[]>(
    "helpdesk",
    async (helpdesk) => (await helpdesk.teammates()) as unknown as Row[],
  );
}
