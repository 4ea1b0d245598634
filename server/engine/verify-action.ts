import { LegacyUnavailableError } from "../connectors/legacy-client";
import { type ActionResponse, notAllowedNow, notFoundAction, respond, unavailable } from "./action-response";
import { parseActionState } from "./action-state";
import {
  type ActionRow,
  type ActorScope,
  type EffectRow,
  loadActionWithCapability,
  recordActionEvent,
  toJson,
} from "./action-store";
import type { Actor, AnyCapability, Verification } from "./define-capability";
import { effectContext } from "./effect-ledger";
import type { EngineDeps } from "./engine-deps";

/** Asks the system of record what really happened and records it (an `unknown` effect found there becomes applied). */
export async function verifyAction(
  deps: EngineDeps,
  actor: Actor,
  actionId: string,
  scope: ActorScope = "own",
): Promise<ActionResponse> {
  const found = await loadActionWithCapability(deps, actor, actionId, scope);
  if (!found) return notFoundAction(actionId);
  const { row, capability } = found;
  const effect = await deps.db.effect.findUnique({ where: { actionId: row.id } });
  if (!effect) {
    if (row.status === "completed")
      return respond(deps, capability, row, {
        outcome: "applied",
        message: "Nothing to verify: this action had no side effect",
        retryable: false,
        next_actions: [],
      });
    return notAllowedNow(deps, capability, row, "verify_action");
  }
  const v = await lookUpEffect(deps, capability, actor, row, effect);
  if (v.happened === "unavailable")
    return unavailable(`${v.message}; could not verify`, {
      action_id: row.id,
      version: row.version,
      next_actions: [
        { tool: "verify_action", args: { action_id: row.id }, description: "Verify again later" },
      ],
    });
  if (v.happened) {
    const next = await recordVerification(deps, row, effect, v, "verified");
    return respond(deps, capability, next, {
      outcome: "applied",
      message: `Verified: ${capability.effect?.description ?? "effect"} happened`,
      retryable: false,
      next_actions: [],
    });
  }
  const state = parseActionState(row.state);
  state.verification = { ...v.details, found: false, checked_at: new Date().toISOString() };
  await deps.db.action.update({ where: { id: row.id }, data: { state: toJson(state) } });
  const next = { ...row, state: state as never };
  if (effect.status === "applied")
    return respond(deps, capability, next, {
      outcome: "unknown",
      reason: "verification_mismatch",
      message:
        "The ledger says applied but the system of record shows nothing; a person should look (recovery queue)",
      retryable: false,
    });
  return respond(deps, capability, next, {
    outcome: effect.status === "failed" ? "rejected" : "unknown",
    reason: "not_found_at_system_of_record",
    message: "The system of record shows no such effect; recover_action retries it with the original key",
    retryable: true,
    next_actions: [
      {
        tool: "recover_action",
        args: { action_id: row.id },
        description: "Retry with the original idempotency key (cannot apply twice)",
      },
    ],
  });
}

/** Looks the effect up at the legacy system by action key / external id. */
export async function lookUpEffect(
  deps: EngineDeps,
  capability: AnyCapability,
  actor: Actor,
  row: ActionRow,
  effect: EffectRow,
): Promise<Verification> {
  const ctx = await effectContext(deps, capability, actor, parseActionState(row.state), effect.actionKey);
  try {
    return (await capability.effect?.verify(ctx)) ?? { happened: false, details: {} };
  } catch (err) {
    if (err instanceof LegacyUnavailableError) return { happened: "unavailable", message: err.message };
    throw err;
  }
}

/** Records an effect the legacy system shows as happened: ledger applied, action completed and VERIFIED. */
export async function recordVerification(
  deps: EngineDeps,
  row: ActionRow,
  effect: EffectRow,
  v: Verification & { happened: true },
  via: "verified" | "recovered",
): Promise<ActionRow> {
  const { db } = deps;
  const state = parseActionState(row.state);
  state.verification = { ...v.details, checked_at: new Date().toISOString() };
  state.recovery = null;
  if (effect.status !== "applied")
    await db.effect.update({
      where: { id: effect.id },
      data: { status: "applied", externalId: v.externalId ?? effect.externalId, error: null },
    });
  const entityId = row.entityId ?? v.entityId ?? null;
  await db.action.update({
    where: { id: row.id },
    data: { status: "completed", node: "VERIFIED", entityId, state: toJson(state) },
  });
  await recordActionEvent(db, {
    actionId: row.id,
    version: row.version,
    kind: via,
    node: "VERIFIED",
    data: state.verification,
  });
  return { ...row, status: "completed", node: "VERIFIED", entityId, state: state as never };
}
