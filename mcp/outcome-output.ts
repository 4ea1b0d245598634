import { z } from "zod";
import { OUTCOME_KINDS } from "@/server/engine/outcome";

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

/** "approval: approved by Alice (member) at 10:42 UTC" — the decider is always named. */
function approvalLine(value: unknown): string | null {
  if (!value || typeof value !== "object") return null;
  const a = value as {
    status?: string;
    expires_at?: string;
    decided_by?: { name?: string; role?: string } | null;
    decided_at?: string | null;
    reason?: string | null;
  };
  if (!a.status) return null;
  if (a.decided_by?.name && a.decided_at)
    return `approval: ${a.status} by ${a.decided_by.name} (${a.decided_by.role}) at ${a.decided_at.slice(11, 16)} UTC${a.reason ? ` — "${a.reason}"` : ""}`;
  return `approval: ${a.status}${a.status === "pending" && a.expires_at ? ` (valid until ${a.expires_at})` : ""}`;
}

/**
 * A short text rendering for hosts that only read `content`: outcome, message, where the
 * action stands and what may be called next. The full object stays in `structuredContent`.
 */
export function renderOutcomeText(result: OutcomeLike & Record<string, unknown>): string {
  const lines: string[] = [`${result.outcome}: ${result.message}`];
  const facts: string[] = [];
  if (result.action_id) facts.push(`action ${result.action_id}`);
  if (result.version !== undefined) facts.push(`version ${result.version}`);
  if (typeof result.node === "string") facts.push(`node ${result.node}`);
  if (result.reason) facts.push(`reason ${result.reason}`);
  if (facts.length) lines.push(facts.join(" · "));
  for (const key of ["missing", "pending", "allowed_patch"] as const) {
    const value = result[key];
    if (Array.isArray(value) && value.length) lines.push(`${key}: ${value.join(", ")}`);
  }
  const errors = result.validation_errors;
  if (Array.isArray(errors) && errors.length) {
    lines.push(
      `validation_errors: ${errors
        .map((e) =>
          e && typeof e === "object"
            ? `${(e as { field?: string }).field}: ${(e as { message?: string }).message}`
            : String(e),
        )
        .join("; ")}`,
    );
  }
  const approval = approvalLine(result.approval);
  if (approval) lines.push(approval);
  if (typeof result.approval_url === "string") lines.push(`approve at: ${result.approval_url}`);
  lines.push(
    result.next_actions.length
      ? `next: ${result.next_actions.map((n) => `${n.tool}${n.requires_user_approval ? " (needs user approval)" : ""}`).join(", ")}`
      : "next: none (flow finished)",
  );
  lines.push("Full result in structuredContent.");
  return lines.join("\n");
}
