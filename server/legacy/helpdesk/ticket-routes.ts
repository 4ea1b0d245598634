import type Database from "better-sqlite3";
import { z } from "zod";
import { defineRoute } from "../http/define-route";
import { LegacyError, notFound } from "../http/legacy-error";
import { listOf, pageQueryShape, paginate } from "../http/paginate";
import { newId } from "../store/new-id";
import {
  commentInputSchema,
  commentSchema,
  ticketPatchSchema,
  ticketPrioritySchema,
  ticketSchema,
  ticketStatusSchema,
} from "./helpdesk-schemas";

type Ticket = z.input<typeof ticketSchema>;

/** The orders a ticket list can come in: by age for "the oldest ticket", by last update by default. */
const TICKET_SORTS = ["-updated_at", "created_at", "-created_at"] as const;
const TICKET_ORDER: Record<(typeof TICKET_SORTS)[number], string> = {
  "-updated_at": "updated_at DESC",
  created_at: "created_at ASC",
  "-created_at": "created_at DESC",
};
const ticketSelect =
  "SELECT id, subject, description, status, priority, assignee_id, team_id, requester_email, resolution, order_id, created_at, updated_at FROM tickets";

function requireTicket(db: Database.Database, tenantId: string, id: string): Ticket {
  const row = db.prepare(`${ticketSelect} WHERE tenant_id = ? AND id = ?`).get(tenantId, id) as
    | Ticket
    | undefined;
  if (!row) throw notFound("ticket", id);
  return row;
}

function exists(db: Database.Database, table: "teammates" | "teams", tenantId: string, id: string): boolean {
  return db.prepare(`SELECT 1 FROM ${table} WHERE tenant_id = ? AND id = ?`).get(tenantId, id) !== undefined;
}

const patchableColumns = [
  "subject",
  "description",
  "status",
  "priority",
  "assignee_id",
  "team_id",
  "resolution",
  "requester_email",
  "order_id",
] as const;

export const ticketRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/tickets",
    operationId: "listTickets",
    summary: "Tickets, most recently updated first unless sort says otherwise",
    tag: "helpdesk",
    query: z.object({
      status: ticketStatusSchema.optional(),
      assignee_id: z.string().optional().describe("a teammate's id, or `none`: tickets nobody is assigned"),
      priority: ticketPrioritySchema.optional(),
      team_id: z.string().optional(),
      requester_email: z
        .string()
        .max(300)
        .optional()
        .describe("the requester's email address, exactly (any letter case)"),
      q: z.string().optional().describe("matches subject or description"),
      sort: z
        .enum(TICKET_SORTS)
        .default("-updated_at")
        .describe("created_at: oldest first; -created_at: newest first; -updated_at: last updated first"),
      ...pageQueryShape,
    }),
    response: listOf(ticketSchema),
    handler: ({ db, tenantId, query }) => {
      const where = ["tenant_id = ?"];
      const args: string[] = [tenantId];
      for (const field of ["status", "priority", "assignee_id", "team_id"] as const) {
        const value = query[field];
        if (field === "assignee_id" && value === "none") where.push("assignee_id IS NULL");
        else if (value) {
          where.push(`${field} = ?`);
          args.push(value);
        }
      }
      if (query.requester_email) {
        where.push("lower(requester_email) = lower(?)");
        args.push(query.requester_email);
      }
      if (query.q) {
        where.push("(lower(subject) LIKE ? OR lower(description) LIKE ?)");
        const like = `%${query.q.toLowerCase()}%`;
        args.push(like, like);
      }
      const rows = db
        .prepare(`${ticketSelect} WHERE ${where.join(" AND ")} ORDER BY ${TICKET_ORDER[query.sort]}, id`)
        .all(...args) as Ticket[];
      return paginate(rows, query);
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/tickets/{id}",
    operationId: "getTicket",
    summary: "One ticket",
    tag: "helpdesk",
    response: ticketSchema,
    handler: ({ db, tenantId, params }) => requireTicket(db, tenantId, params.id),
  }),
  defineRoute({
    method: "PATCH",
    path: "/v1/tickets/{id}",
    operationId: "updateTicket",
    summary: "Generic update of any ticket field",
    description:
      "Changes whatever it is sent. It only checks that a referenced assignee or team exists: not that the assignee is active or in the team, not that a resolved ticket has a resolution.",
    tag: "helpdesk",
    idempotent: true,
    body: ticketPatchSchema,
    response: ticketSchema,
    errors: [{ status: 422, code: "validation_failed", when: "the assignee or team does not exist" }],
    handler: ({ db, tenantId, params, body, now }) => {
      requireTicket(db, tenantId, params.id);
      if (body.assignee_id && !exists(db, "teammates", tenantId, body.assignee_id)) {
        throw new LegacyError(422, "validation_failed", `no teammate ${body.assignee_id}`, {
          field: "assignee_id",
        });
      }
      if (body.team_id && !exists(db, "teams", tenantId, body.team_id)) {
        throw new LegacyError(422, "validation_failed", `no team ${body.team_id}`, { field: "team_id" });
      }
      const sets: string[] = [];
      const args: (string | null)[] = [];
      for (const column of patchableColumns) {
        const value = body[column];
        if (value !== undefined) {
          sets.push(`${column} = ?`);
          args.push(value);
        }
      }
      db.prepare(`UPDATE tickets SET ${sets.join(", ")}, updated_at = ? WHERE tenant_id = ? AND id = ?`).run(
        ...args,
        now.toISOString(),
        tenantId,
        params.id,
      );
      return requireTicket(db, tenantId, params.id);
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/tickets/{id}/comments",
    operationId: "listComments",
    summary: "Comments of a ticket, oldest first",
    tag: "helpdesk",
    query: z.object(pageQueryShape),
    response: listOf(commentSchema),
    handler: ({ db, tenantId, params, query }) => {
      requireTicket(db, tenantId, params.id);
      const rows = db
        .prepare(
          "SELECT id, ticket_id, author, body, internal, reference, created_at FROM ticket_comments WHERE tenant_id = ? AND ticket_id = ? ORDER BY created_at, rowid",
        )
        .all(tenantId, params.id) as (Omit<z.input<typeof commentSchema>, "internal"> & {
        internal: number;
      })[];
      return paginate(
        rows.map((r) => ({ ...r, internal: r.internal === 1 })),
        query,
      );
    },
  }),
  defineRoute({
    method: "POST",
    path: "/v1/tickets/{id}/comments",
    operationId: "addComment",
    summary: "Add a comment or internal note",
    tag: "helpdesk",
    idempotent: true,
    body: commentInputSchema,
    response: commentSchema,
    status: 201,
    handler: ({ db, tenantId, params, body, now }) => {
      requireTicket(db, tenantId, params.id);
      const comment = {
        id: newId("cmt"),
        ticket_id: params.id,
        author: body.author,
        body: body.body,
        internal: body.internal,
        reference: body.reference ?? null,
        created_at: now.toISOString(),
      };
      db.prepare(
        "INSERT INTO ticket_comments (tenant_id, id, ticket_id, author, body, internal, reference, created_at) VALUES (?,?,?,?,?,?,?,?)",
      ).run(
        tenantId,
        comment.id,
        comment.ticket_id,
        comment.author,
        comment.body,
        comment.internal ? 1 : 0,
        comment.reference,
        comment.created_at,
      );
      db.prepare("UPDATE tickets SET updated_at = ? WHERE tenant_id = ? AND id = ?").run(
        comment.created_at,
        tenantId,
        params.id,
      );
      return comment;
    },
  }),
];
