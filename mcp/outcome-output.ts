import { z } from "zod";
import { OUTCOME_KINDS } from "@/server/connectors/sdk/outcome";

const nextAction = z.looseObject({
  tool: z.string(),
  args: z.record(z.string(), z.unknown()).optional(),
  description: z.string(),
  requires_user_approval: z.boolean().optional(),
});

/**
 * The `outputSchema` every action tool declares: the typed outcome with `next_actions`.
 * Operation-specific fields (inputs, options, summary, view…) ride beside it, so the object is
 * open; the fixed part is what a workflow branches on.
 */
export const outcomeOutputSchema = z.looseObject({
  outcome: z.enum(OUTCOME_KINDS),
  message: z.string(),
  retryable: z.boolean(),
  reason: z.string().optional(),
  action_id: z.string().optional(),
  version: z.number().int().optional(),
  next_actions: z
    .array(nextAction)
    .describe("The only calls allowed next; empty means the flow is finished."),
});

export type OutcomeLike = z.infer<typeof outcomeOutputSchema>;

/** The browse tools' structured result: the page's URI, its outcome, and the markdown in `content`. */
export const pageOutputSchema = z.object({
  uri: z.string(),
  title: z.string(),
  outcome: z.enum(OUTCOME_KINDS),
  links: z.array(z.string()).describe("URIs this page links to, in order."),
});
