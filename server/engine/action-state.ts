import { z } from "zod";

/** What the engine keeps in Action.state; re-parsed on every load (stored JSON is an edge). */
export const actionStateSchema = z.object({
  values: z.record(z.string(), z.unknown()),
  derived: z.record(z.string(), z.unknown()),
  options: z.record(z.string(), z.unknown()),
  applied: z.array(z.string()),
  missing: z.array(z.string()),
  pending: z.array(z.string()),
  validation_errors: z.array(
    z.object({
      field: z.string(),
      code: z.string(),
      message: z.string(),
      refused: z.boolean().optional(),
      already: z.boolean().optional(),
      choice_closed: z.boolean().optional(),
      closest: z.string().optional(),
      closest_either: z.array(z.string()).max(5).optional(),
      alternatives: z
        .array(
          z.object({ capability: z.string(), entity_id: z.string().optional(), description: z.string() }),
        )
        .max(5)
        .optional(),
    }),
  ),
  summary: z.record(z.string(), z.unknown()).nullable(),
  digest: z.string().nullable(),
  requires_approval: z.boolean(),
  result: z.record(z.string(), z.unknown()).nullable(),
  verification: z.record(z.string(), z.unknown()).nullable(),
  last_error: z.object({ code: z.string(), message: z.string() }).nullable(),
  recovery: z.object({ queued_at: z.string(), reason: z.string() }).nullable(),
  /** Fields whose value the user's words named (a label, the request): field → value. */
  from_words: z.record(z.string(), z.string()).optional(),
  /** The user's request as the start gave it: later steps fill their missing fields from it too. */
  request: z.string().max(1000).optional(),
  /** Fields the action filled from its own default: filled again (and marked) on the next step. */
  defaulted: z.array(z.string().max(64)).max(100).optional(),
  /** Reasons filled with the user's request verbatim: filled again (and marked) on the next step. */
  from_request: z.array(z.string().max(64)).max(100).optional(),
  /**
   * Held at its start only because the user's words did not name its record (ask_user): nothing
   * ran, so this agent's next start of the same capability on the record takes its place
   * (held-for-words.ts).
   */
  held_for_words: z.boolean().optional(),
  /**
   * Its record was read from words that may not mean it: a step completing it waits for
   * confirm_action, never runs under a key (hold-for-check.ts).
   */
  held_for_check: z.boolean().optional(),
});
export type ActionState = z.infer<typeof actionStateSchema>;

export function emptyActionState(): ActionState {
  return {
    values: {},
    derived: {},
    options: {},
    applied: [],
    missing: [],
    pending: [],
    validation_errors: [],
    summary: null,
    digest: null,
    requires_approval: false,
    result: null,
    verification: null,
    last_error: null,
    recovery: null,
  };
}

export function parseActionState(raw: unknown): ActionState {
  const parsed = actionStateSchema.safeParse(raw);
  return parsed.success ? parsed.data : { ...emptyActionState(), ...(raw as object) };
}

export const ACTION_STATUSES = [
  "open",
  "awaiting_approval",
  "approved",
  "executing",
  "applied",
  "failed",
  "unknown",
  // A person rejected the approval: the agent may still change what they objected to.
  "rejected",
  "cancelled",
  "completed",
  // Ended at its start: the record it was started for takes nothing now (a refusal no field can
  // fix, or a read the system refused). Nothing is held, so there is nothing to cancel.
  "refused",
] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

export const effectRequestSchema = z.object({
  idempotency_key: z.string(),
  version: z.number(),
  digest: z.string().nullable(),
  lease_until: z.string(),
});
