import type { Db } from "../db/client";
import { effectRequestSchema, parseActionState } from "../engine/action-state";
import { recordActionEvent, toJson } from "../engine/action-store";
import type { Outcome } from "../engine/outcome";
import type { ResolveRecoveryInput } from "./operations/operation-schemas";
import type { TrustedContext } from "./trusted-context";

const staff = (ctx: TrustedContext) =>
  ctx.kind === "person" && (ctx.role === "support" || ctx.role === "admin");

/**
 * Actions a person must look at: effects in `unknown`, effects stuck `pending` past their lease
 * (a crash between sending and recording), and effects the ledger calls applied but
 * verification could not find. Support and admins only.
 */
export async function listRecoveryQueue(db: Db, ctx: TrustedContext) {
  if (!staff(ctx)) return [];
  const effects = await db.effect.findMany({
    where: { tenantId: ctx.tenantId, status: { in: ["unknown", "pending", "failed"] } },
    include: { action: true },
    orderBy: { updatedAt: "desc" },
    take: 500,
  });
  const now = Date.now();
  return effects
    .filter((e) => {
      if (e.status !== "pending") return e.status === "unknown" || e.action.status === "unknown";
      const lease = effectRequestSchema.safeParse(e.request).data?.lease_until;
      return !lease || Date.parse(lease) < now;
    })
    .map((e) => {
      const state = parseActionState(e.action.state);
      return {
        action_id: e.actionId,
        capability: e.action.capability,
        user_id: e.action.userId,
        agent_id: e.action.agentId,
        effect_status: e.status,
        action_key: e.actionKey,
        kind: e.kind,
        attempts: e.attempts,
        error: e.error,
        summary: state.summary,
        queued_reason:
          state.recovery?.reason ??
          (e.status === "pending" ? "no result recorded after sending (crash?)" : (e.error ?? "unknown")),
        updated_at: e.updatedAt.toISOString(),
      };
    });
}

/** A person records what they established at the system of record. */
export async function resolveRecoveryItem(
  db: Db,
  ctx: TrustedContext,
  input: ResolveRecoveryInput,
): Promise<Outcome<Record<string, unknown>>> {
  if (!staff(ctx))
    return {
      outcome: "rejected",
      reason: "support_required",
      message: "Only support or an admin can resolve recovery items",
      retryable: false,
      next_actions: [],
    };
  const effect = await db.effect.findFirst({ where: { actionId: input.action_id, tenantId: ctx.tenantId } });
  if (!effect)
    return {
      outcome: "not_found",
      reason: "action_not_found",
      message: `No effect for action ${input.action_id}`,
      retryable: false,
      next_actions: [],
    };
  if (effect.status === "applied" && input.resolution === "applied")
    return {
      outcome: "applied",
      message: "Already recorded as applied",
      retryable: false,
      action_id: input.action_id,
      next_actions: [],
    };
  const status = input.resolution === "applied" ? "applied" : "failed";
  const updated = await db.effect.updateMany({
    where: { id: effect.id, status: effect.status },
    data: { status, error: input.note ?? `resolved by a person: ${input.resolution}` },
  });
  if (!updated.count)
    return {
      outcome: "conflict",
      reason: "changed",
      message: "The effect changed meanwhile; reload",
      retryable: true,
      next_actions: [],
    };
  const action = await db.action.findUniqueOrThrow({ where: { id: input.action_id } });
  const state = parseActionState(action.state);
  state.recovery = null;
  await db.action.update({
    where: { id: action.id },
    data: { status: input.resolution === "applied" ? "completed" : "failed", state: toJson(state) },
  });
  await recordActionEvent(db, {
    actionId: action.id,
    version: action.version,
    kind: "recovery_resolved",
    node: action.node,
    data: { resolution: input.resolution, note: input.note ?? null, by: ctx.userId },
  });
  return {
    outcome: "applied",
    message: `Recorded as ${input.resolution}`,
    retryable: false,
    action_id: action.id,
    next_actions: [],
  };
}
