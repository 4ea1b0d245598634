import type { BackendOutcome, BrowseBackend, ListPage } from "../sdk/browse-backend";
import type { FilterChoice } from "../sdk/define-route";
import type { ReferenceNames } from "../sdk/reference-labels";
import { isOutcome } from "../sdk/route-pages";
import type { HelpdeskAdapter, HelpdeskTeammate, HelpdeskTicket } from "./helpdesk-adapter";
import { scopedTickets } from "./scoped-tickets";

/** Rows per list page: small enough that a page stays a few hundred tokens. */
const PAGE_SIZE = 10;

/**
 * Tickets this caller may see (the rule is scopedTickets'), one listing page of them;
 * `raisedInstead` when "mine" was read as the tickets they raised (raisedInsteadLine says so).
 */
export function listTickets(
  backend: BrowseBackend,
  input: {
    page: number;
    perPage?: number;
    status?: string;
    priority?: string;
    assignee_id?: string;
    team_id?: string;
    requester_email?: string;
    mine?: boolean;
    q?: string;
    sort?: "created_at" | "-created_at" | "-updated_at";
  },
): Promise<(ListPage<HelpdeskTicket> & { raisedInstead?: true }) | BackendOutcome> {
  return backend.withAdapter<HelpdeskAdapter, ListPage<HelpdeskTicket> & { raisedInstead?: true }>(
    "helpdesk",
    async (helpdesk) => {
      const who = backend.who();
      const result = await scopedTickets(
        helpdesk,
        { email: who.userEmail, role: who.role },
        { ...input, perPage: input.perPage ?? PAGE_SIZE },
      );
      return {
        data: result.data,
        page: input.page,
        next_page: result.next_page,
        total: result.total,
        ...(result.raisedInstead ? { raisedInstead: result.raisedInstead } : {}),
      };
    },
  );
}

export function teammates(backend: BrowseBackend): Promise<HelpdeskTeammate[] | BackendOutcome> {
  return backend.withAdapter<HelpdeskAdapter, HelpdeskTeammate[]>("helpdesk", (helpdesk) =>
    helpdesk.teammates(),
  );
}

/**
 * The teams a ticket listing filters by, named as the helpdesk names them (the teammates page
 * shows the same teams): a search's words "team shipping" pick `?team_id=shipping`. Null when
 * the caller may not read the teammates page or the helpdesk cannot answer now: the words then
 * stay words.
 */
export async function teamChoices(backend: BrowseBackend): Promise<FilterChoice[] | null> {
  // The teams are what the teammates page shows: a caller who may not read it learns none of
  // them through a search's words either.
  if ((await backend.authorize("navigate", "helpdesk://teammates", { preview: true })).decision !== "allow")
    return null;
  const teams = await backend.withAdapter<HelpdeskAdapter, FilterChoice[]>("helpdesk", async (helpdesk) =>
    (await helpdesk.teams()).map((t) => ({ value: t.id, label: t.name || t.id })),
  );
  return Array.isArray(teams) ? teams : null;
}

/**
 * Whom a ticket listing filters by (`?assignee_id=`): each teammate by their name and their first
 * name, and `none` by people's words for a ticket nobody has. Set O: "tickets assigned to Sara"
 * and "open tickets nobody is assigned" listed every ticket, "not narrowed", and the model
 * filtered the rows by eye. Null, as for teams, when the caller may not read the teammates page.
 */
export async function assigneeChoices(backend: BrowseBackend): Promise<FilterChoice[] | null> {
  if ((await backend.authorize("navigate", "helpdesk://teammates", { preview: true })).decision !== "allow")
    return null;
  const people = await backend.withAdapter<HelpdeskAdapter, FilterChoice[]>("helpdesk", async (helpdesk) =>
    (await helpdesk.teammates()).flatMap((t) => {
      const name = t.name || t.id;
      const first = name.split(/\s+/)[0] ?? name;
      return first === name
        ? [{ value: t.id, label: name }]
        : [
            { value: t.id, label: name },
            { value: t.id, label: first },
          ];
    }),
  );
  if (!Array.isArray(people)) return null;
  return [...people, ...UNASSIGNED_WORDS.map((label) => ({ value: "none", label }))];
}

/** Tickets read for who raised them: the latest page, whatever the helpdesk holds. */
const REQUESTERS_READ = 100;

/**
 * Who raised the tickets a listing filters by (`?requester_email=`): the addresses on the latest
 * tickets the caller may see (the listing's own rule, so a customer's are only theirs), read when
 * a search's words are left over; the search names one by the words before its `@`. Issue 23
 * (set S): "Alice open tickets" searched subjects for "alice" and read as "she has none".
 */
export async function requesterChoices(backend: BrowseBackend): Promise<FilterChoice[] | null> {
  const latest = await listTickets(backend, { page: 1, perPage: REQUESTERS_READ, sort: "-updated_at" });
  if (isOutcome(latest)) return null;
  const addresses = new Set(latest.data.map((t) => String(t.requester_email ?? "").toLowerCase()));
  return [...addresses].filter(Boolean).map((a) => ({ value: a, label: a }));
}

/**
 * What people call a ticket nobody is assigned (`?assignee_id=none`); "no assignee" is read as
 * for any filter (browse none-named.ts). Not "no one" (review 57: "tickets no one has replied
 * to"), nor "not assigned" ("not assigned to Sara" sets Sara apart, it names no one).
 */
const UNASSIGNED_WORDS = ["unassigned", "nobody"];

/**
 * How helpdesk rows name the teammates and teams they point at (`assignee_id`, `team_id`): by
 * the names the teammates page shows, read once per listing. A caller who may not read the
 * teammates page learns no name here either; the ids then stay ids.
 */
export function helpdeskReferences(backend: BrowseBackend): Record<string, ReferenceNames> {
  let allowed: Promise<boolean> | undefined;
  const mayRead = () => {
    allowed ??= backend
      .authorize("navigate", "helpdesk://teammates", { preview: true })
      .then((a) => a.decision === "allow");
    return allowed;
  };
  const named = (read: (helpdesk: HelpdeskAdapter) => Promise<Array<{ id: string; name: string }>>) =>
    (async () => {
      if (!(await mayRead())) return null;
      const rows = await backend.withAdapter<HelpdeskAdapter, Array<{ id: string; name: string }>>(
        "helpdesk",
        read,
      );
      return Array.isArray(rows) ? new Map(rows.map((r) => [r.id, r.name])) : null;
    }) satisfies ReferenceNames;
  return {
    assignee_id: named((helpdesk) => helpdesk.teammates()),
    team_id: named((helpdesk) => helpdesk.teams()),
  };
}
