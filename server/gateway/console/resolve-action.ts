import { z } from "zod";
import type { Db } from "../../db/client";
import type { ConsoleContext } from "../console-session";
import { type ConsoleResult, fail, ok } from "./console-result";
import { recordConsoleAudit } from "./record-console-audit";

export const resolveActionInputSchema = z
  .object({
    /** What the person found in the legacy system: the effect happened, or it did not. */
    outcome: z.enum(["applied", "failed"]),
    note: z.string().trim().min(1).max(500),
  })
  .strict();

/**
 * "Mark resolved" in the recovery queue: a person checked the legacy system and records what
 * really happened to an action stuck in `unknown`. Only support and admins; audited.
 */
export async function resolveAction(
  db: Db,
  ctx: ConsoleContext,
  actionId: string,
  input: z.infer<typeof resolveActionInputSchema>,
): Promise<ConsoleResult<{ actionId: string; status: string }>> {
  const startedAt = Date.now();
  if (ctx.role === "member") return fail("forbidden", "Only support and admins resolve actions.");
  const action = await db.action.findFirst({ where: { id: actionId, tenantId: ctx.tenantId }, include: { effect: true } });
  if (!action) return fail("not_found", "No such action.");
  if (action.status !== "unknown" && action.effect?.status !== "unknown") {
    return fail("conflict", `Only actions in unknown can be marked resolved; this one is ${action.status}.`);
  }
  // Conditional on the status we read: a concurrent verify or recover that settled it wins.
  const updated = await db.action.updateMany({
    where: { id: actionId, tenantId: ctx.tenantId, version: action.version },
    data: { status: input.outcome, version: action.version + 1 },
  });
  if (updated.count !== 1) return fail("conflict", "The action changed meanwhile: reload.");
  if (action.effect) {
    await db.effect.updateMany({
      where: { actionId, status: { in: ["unknown", "pending"] } },
      data: { status: input.outcome, error: input.outcome === "failed" ? `resolved by a person: ${input.note}` : action.effect.error },
    });
  }
  await db.actionEvent.create({
    data: {
      actionId,
      version: action.version + 1,
      kind: "resolved",
      node: action.node,
      data: { by: ctx.userId, outcome: input.outcome, note: input.note },
    },
  });
  await recordConsoleAudit(db, ctx, {
    operation: "action.resolved",
    target: actionId,
    capability: action.capability,
    arguments: input,
    outcome: "applied",
    actionId,
    actionKey: action.effect?.actionKey ?? null,
    startedAt,
  });
  return ok({ actionId, status: input.outcome });
}
