import { z } from "zod";

export const ticketStatusSchema = z.enum(["open", "pending", "resolved", "closed"]);
export const ticketPrioritySchema = z.enum(["low", "normal", "high", "urgent"]);

export const teamSchema = z.strictObject({ id: z.string(), name: z.string() });

export const teammateSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  team_id: z.string(),
  active: z.boolean(),
});

export const ticketSchema = z.strictObject({
  id: z.string(),
  subject: z.string(),
  description: z.string(),
  status: ticketStatusSchema,
  priority: ticketPrioritySchema,
  assignee_id: z.string().nullable(),
  team_id: z.string().nullable(),
  requester_email: z.string(),
  resolution: z.string().nullable(),
  order_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The generic update: any field, almost no rules (Signpost must not expose this as is). */
export const ticketPatchSchema = z
  .strictObject({
    subject: z.string().min(1).max(300),
    description: z.string().max(10_000),
    status: ticketStatusSchema,
    priority: ticketPrioritySchema,
    assignee_id: z.string().min(1).nullable(),
    team_id: z.string().min(1).nullable(),
    resolution: z.string().max(10_000).nullable(),
    requester_email: z.string().min(3).max(300),
    order_id: z.string().min(1).nullable(),
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, { message: "change at least one field" });

export const commentSchema = z.strictObject({
  id: z.string(),
  ticket_id: z.string(),
  author: z.string(),
  body: z.string(),
  internal: z.boolean(),
  reference: z.string().nullable(),
  created_at: z.string(),
});

export const commentInputSchema = z.strictObject({
  author: z.string().min(1).max(200).describe("teammate id or requester email"),
  body: z.string().min(1).max(10_000),
  internal: z.boolean().default(false).describe("internal notes are hidden from the requester"),
  reference: z.string().min(1).max(200).optional(),
});
