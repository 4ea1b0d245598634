import { createHttpClient, type HttpClient, type HttpClientOptions } from "../sdk/http-client";

export interface HelpdeskTeam {
  id: string;
  name: string;
}
export interface HelpdeskTeammate {
  id: string;
  name: string;
  email: string;
  team_id: string;
  active: boolean;
}
export type TicketStatus = "open" | "pending" | "resolved" | "closed";
export type TicketPriority = "low" | "normal" | "high" | "urgent";
export interface HelpdeskTicket {
  id: string;
  subject: string;
  description: string;
  status: TicketStatus;
  priority: TicketPriority;
  assignee_id: string | null;
  team_id: string | null;
  requester_email: string;
  resolution: string | null;
  order_id?: string | null;
  created_at: string;
  updated_at: string;
}
export interface HelpdeskComment {
  id: string;
  ticket_id: string;
  author: string;
  body: string;
  /** Internal notes are hidden from the requester; the rest is shown to the customer. */
  internal: boolean;
  reference: string | null;
  created_at: string;
}

function listOf<T>(body: unknown): T[] {
  if (Array.isArray(body)) return body as T[];
  const data = (body as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? (data as T[]) : [];
}

/** The helpdesk side of the legacy API. Writes go through the generic PATCH, one narrow change each. */
export function createHelpdeskAdapter(options: HttpClientOptions) {
  const http: HttpClient = createHttpClient(options);
  const enc = encodeURIComponent;
  /** One page of a ticket's comments, oldest first, as the API pages them. */
  async function commentsPage(id: string, page: number, perPage: number) {
    const body = await http.get<unknown>(`/v1/tickets/${enc(id)}/comments`, { page, per_page: perPage });
    const b = body as { total?: number; next_page?: number | null } | null;
    return { data: listOf<HelpdeskComment>(body), total: b?.total ?? 0, next_page: b?.next_page ?? null };
  }
  return {
    http,
    async teams(): Promise<HelpdeskTeam[]> {
      return listOf<HelpdeskTeam>(await http.get<unknown>("/v1/teams"));
    },
    async teammates(team?: string): Promise<HelpdeskTeammate[]> {
      return listOf<HelpdeskTeammate>(await http.get<unknown>("/v1/teammates", { team }));
    },
    async ticket(id: string) {
      return http.get<HelpdeskTicket>(`/v1/tickets/${enc(id)}`);
    },
    /** Every comment of a ticket, oldest first, all pages (a ticket's thread is short). */
    async comments(id: string): Promise<HelpdeskComment[]> {
      const all: HelpdeskComment[] = [];
      for (let page: number | null = 1; page; ) {
        const body: unknown = await http.get<unknown>(`/v1/tickets/${enc(id)}/comments`, {
          page,
          per_page: 100,
        });
        all.push(...listOf<HelpdeskComment>(body));
        page = (body as { next_page?: number | null } | null)?.next_page ?? null;
      }
      return all;
    },
    commentsPage,
    /**
     * The newest `n` comments, oldest of them first, and how many there are in all: at most three
     * pages read, however long the thread (the API pages oldest first and has no reverse order).
     */
    async lastComments(id: string, n: number): Promise<{ comments: HelpdeskComment[]; total: number }> {
      const first = await commentsPage(id, 1, n);
      if (first.total <= n) return { comments: first.data, total: first.total };
      const start = first.total - n;
      const from = Math.floor(start / n) + 1;
      const to = Math.ceil(first.total / n);
      const pages = await Promise.all(
        Array.from({ length: to - from + 1 }, (_, i) => commentsPage(id, from + i, n)),
      );
      const skipped = start - (from - 1) * n;
      return { comments: pages.flatMap((p) => p.data).slice(skipped, skipped + n), total: first.total };
    },
    async tickets(query: {
      status?: string;
      priority?: string;
      /** A teammate's id, or `none`: tickets nobody is assigned. */
      assignee_id?: string;
      team_id?: string;
      /** Tickets raised from this address, compared whole by the API (never a pattern). */
      requester_email?: string;
      q?: string;
      /** The legacy API's order: created_at (oldest first), -created_at, -updated_at (its default). */
      sort?: "created_at" | "-created_at" | "-updated_at";
      page?: number;
      per_page?: number;
    }) {
      const body = await http.get<unknown>("/v1/tickets", query);
      const b = body as { total?: number; next_page?: number | null } | null;
      return { data: listOf<HelpdeskTicket>(body), total: b?.total ?? 0, next_page: b?.next_page ?? null };
    },
  };
}

export type HelpdeskAdapter = ReturnType<typeof createHelpdeskAdapter>;
