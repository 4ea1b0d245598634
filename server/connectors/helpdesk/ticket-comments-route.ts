import type { RouteDefinition } from "../sdk/define-route";
import { withFormFields } from "../sdk/form-links";
import { link } from "../sdk/markdown";
import { rowsTable } from "../sdk/render-helpers";
import {
  isOutcome,
  NOT_FOUND_FOR,
  outcomePage,
  pageNumber,
  pagination,
  partActionsSection,
} from "../sdk/route-pages";
import type { HelpdeskAdapter } from "./helpdesk-adapter";
import { COMMENTS_SHOWN, commentRows } from "./ticket-comment-rows";
import { ticketFormLinks } from "./ticket-form-links";

/**
 * Every comment of one ticket, a page at a time, oldest first as the helpdesk pages them: the
 * ticket's page shows only the newest and points here for the earlier ones.
 */
export const TICKET_COMMENTS_ROUTE: RouteDefinition = {
  pattern: "helpdesk://ticket/{id}/comments",
  title: "Ticket comments",
  description:
    "All comments of one ticket, oldest first, 10 a page (?page=): who wrote each, whether the customer sees it.",
  keywords: ["comments", "thread", "history", "what we told the customer", "notes"],
  async render(match, backend) {
    const id = match.params.id ?? "";
    // The ticket's own view decides whether this caller may read it (its roles, its tenant), and
    // names who raised it, so the requester's comments read as the customer's.
    const ticket = await backend.entityView("ticket", id);
    if (ticket.outcome === "not_found") return NOT_FOUND_FOR("ticket", id);
    if (ticket.outcome !== "applied") return outcomePage(`Ticket ${id} comments`, ticket);
    const requester = String(
      (ticket.view as { requester_email?: unknown } | undefined)?.requester_email ?? "",
    );
    const page = pageNumber(match.uri);
    const result = await backend.withAdapter<
      HelpdeskAdapter,
      { rows: object[]; total: number; next: number | null }
    >("helpdesk", async (helpdesk) => {
      const [comments, mates] = await Promise.all([
        helpdesk.commentsPage(id, page, COMMENTS_SHOWN),
        helpdesk.teammates(),
      ]);
      return {
        rows: commentRows(comments.data, mates, requester),
        total: comments.total,
        next: comments.next_page,
      };
    });
    if (isOutcome(result)) return outcomePage(`Ticket ${id} comments`, result);
    const back = link(`Ticket ${id}`, `helpdesk://ticket/${id}`);
    // Adding to the thread is offered where it is read, with the form's fields.
    const actions = partActionsSection(
      ticket,
      await withFormFields(backend, ticketFormLinks(id, ticket, ["comment_ticket"])),
    );
    return {
      title: `Ticket ${id} comments`,
      outcome: "applied",
      markdown: [
        result.rows.length ? rowsTable(result.rows) : `No comments on page ${page}.`,
        pagination(match.uri, {
          data: result.rows,
          page,

          total: result.total,
          next_page: result.next,
        }),
        back,
        actions,
      ]
        .filter(Boolean)
        .join("\n\n"),
    };
  },
};
