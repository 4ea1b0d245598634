import type { Actor, AnyCapability, EffectContext, EffectResult } from "../connectors/sdk/define-capability";
import type { AdapterWrites, HttpClient } from "../connectors/sdk/http-client";
import { ConnectionRequiredError, UpstreamForbiddenError } from "../connectors/sdk/person-auth";
import { SystemUnavailableError } from "../connectors/sdk/system-errors";
import { type ActionResponse, notFoundAction, respond, unavailable } from "./action-response";
import { type ActionState, type ActionStatus, effectRequestSchema, parseActionState } from "./action-state";
import {
  type ActionRow,
  type ActorScope,
  type EffectRow,
  loadAction,
  recordActionEvent,
  toJson,
} from "./action-store";
import type { EngineDeps } from "./engine-deps";
import { whatWasDone } from "./what-was-done";

/**
 * The effect ledger: one Effect row per action, keyed by the action key, claimed (`pending`)
 * before anything is sent and settled with what the system answered. It is what makes
 * an effect happen at most once, across processes and crashes.
 */

/** The action key: one per action version, sent as Idempotency-Key and reference. */
export function actionKeyFor(row: ActionRow): string {
  return `sp_${row.id}_v${row.version}`;
}

/** Until when a claimed effect counts as in flight: past it, a `pending` row is a crashed sender's. */
export function leaseUntil(capability: AnyCapability): string {
  const { attempts, backoffMs } = capability.policy.retry;
  const budget = capability.policy.timeoutMs * Math.max(1, attempts) + backoffMs * 2 ** attempts + 5000;
  return new Date(Date.now() + budget).toISOString();
}

/** The original idempotency_key the agent sent with the first confirm. */
export function firstIdempotencyKey(effect: EffectRow): string | undefined {
  return effectRequestSchema.safeParse(effect.request).data?.idempotency_key;
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    e?.code === "P2002" ||
    /unique constraint/i.test(e?.message ?? "") ||
    /duplicate key value/i.test(e?.message ?? "")
  );
}

export async function effectContext(
  deps: EngineDeps,
  capability: AnyCapability,
  actor: Actor,
  state: ActionState,
  actionKey: string,
): Promise<EffectContext<unknown>> {
  return {
    adapter: await deps.adapterFor(capability.connector, actor),
    actor,
    values: state.values,
    derived: state.derived,
    actionKey,
    timeoutMs: capability.policy.timeoutMs,
    attempts: capability.policy.retry.attempts,
  };
}

/**
 * How the caller took the claim, so it can be given back when the effect cannot even start:
 * `fresh` (confirm created the row; the action was at `statusBefore`) or re-claimed (a retry of
 * a `failed` effect or a recovery). Re-claimed is the default: recover-action passes nothing.
 */
export type EffectClaim = { fresh: true; statusBefore: ActionRow["status"] } | { fresh: false };

/** Gives back a claim when nothing was sent: a fresh row is deleted, a re-claimed one is `failed` again. */
export async function releaseClaim(db: EngineDeps["db"], effect: EffectRow, fresh: boolean): Promise<void> {
  if (fresh) await db.effect.delete({ where: { id: effect.id } });
  else await db.effect.update({ where: { id: effect.id }, data: { status: "failed" } });
}

/**
 * The adapter as the effect sees it, the client it states its writes go through watched
 * (AdapterWrites.http, in the SDK): once a request other than a GET has gone out on it, an
 * exception from the effect can no longer mean "nothing was sent". An adapter stating `http: null`
 * (or nothing) is not watched.
 */
function watchingWrites(adapter: unknown): { adapter: unknown; wrote: () => boolean } {
  const http = (adapter as Partial<AdapterWrites> | null)?.http;
  if (!adapter || typeof adapter !== "object" || typeof http?.request !== "function")
    return { adapter, wrote: () => false };
  let wrote = false;
  const watched: HttpClient = {
    ...http,
    request: (req) => {
      // Marked before it leaves: a request that throws on the way may still have arrived.
      if (req.method !== "GET") wrote = true;
      return http.request(req);
    },
  };
  const copy = Object.assign(Object.create(Object.getPrototypeOf(adapter)), adapter, { http: watched });
  return { adapter: copy, wrote: () => wrote };
}

/** Sends the claimed effect and records the answer before anyone gets a response. */
export async function executeEffect(
  deps: EngineDeps,
  capability: AnyCapability,
  actor: Actor,
  row: ActionRow,
  effect: EffectRow,
  via: "confirmed" | "recovered",
  claim: EffectClaim = { fresh: false },
): Promise<ActionResponse> {
  let ctx: EffectContext<unknown>;
  try {
    ctx = await effectContext(deps, capability, actor, parseActionState(row.state), effect.actionKey);
  } catch (err) {
    // The connector was disabled or its key removed since the claim: nothing was sent.
    return notStarted(deps, capability, row, effect, via, claim, err);
  }
  const watched = watchingWrites(ctx.adapter);
  let result: EffectResult;
  try {
    result = (await capability.effect?.execute({ ...ctx, adapter: watched.adapter })) ?? {
      status: "rejected",
      code: "no_effect",
      message: "capability has no effect",
    };
  } catch (err) {
    // The system refused the person's own token (401) or their rights (403) for this request:
    // it answered and applied nothing, so the claim is given back like a connector that could
    // not be prepared, and the caller answers connection_required or forbidden (never unknown,
    // which would send a person to verify a write that was refused).
    if (!watched.wrote() && (err instanceof ConnectionRequiredError || err instanceof UpstreamForbiddenError))
      return notStarted(deps, capability, row, effect, via, claim, err);
    const message = (err as Error)?.message ?? String(err);
    // After a write went out, no exception tells whether it happened: verify, never re-send.
    if (watched.wrote())
      result = {
        status: "unknown",
        message: `the write was sent, but its result could not be confirmed (${message}); verify_action will settle it`,
      };
    // A read that stayed down before any write: nothing was sent.
    else if (err instanceof SystemUnavailableError) result = { status: "unavailable", message };
    else result = { status: "unknown", message: `unexpected error after the effect was claimed: ${message}` };
  }
  return recordEffectResult(deps, capability, row, effect, result, via);
}

/**
 * The effect could not even start (its adapter could not be had): gives the claim back as
 * confirm does for its other failures before sending. A fresh claim leaves no trace (the action
 * returns to where it was); a re-claimed one is `failed` again, as after a 503 from the system.
 */
async function notStarted(
  deps: EngineDeps,
  capability: AnyCapability,
  row: ActionRow,
  effect: EffectRow,
  via: "confirmed" | "recovered",
  claim: EffectClaim,
  err: unknown,
): Promise<ActionResponse> {
  const down = err instanceof SystemUnavailableError;
  if (claim.fresh) {
    await releaseClaim(deps.db, effect, true);
    await deps.db.action.update({ where: { id: row.id }, data: { status: claim.statusBefore } });
    if (down)
      return unavailable(`${err.message}; nothing was sent`, { action_id: row.id, version: row.version });
  } else {
    const message = down ? err.message : "the connector could not be prepared";
    const answer = await recordEffectResult(
      deps,
      capability,
      row,
      effect,
      { status: "unavailable", message },
      via,
    );
    if (down) return answer;
  }
  // Not the system's doing (a bug, the database): released, then the caller's to report.
  throw err;
}

/** What one answer of the system means for the ledger row, the action and the agent. */
interface Settlement {
  /** The ledger row's new fields; null: delete the row (definitely not applied, a changed action may try again). */
  ledger: {
    status: "applied" | "failed" | "unknown";
    error: string | null;
    externalId?: string | null;
    response?: ReturnType<typeof toJson>;
  } | null;
  status: ActionStatus;
  lastError: ActionState["last_error"];
  response: Pick<ActionResponse, "outcome" | "message" | "retryable" | "reason">;
}

/** Business refusals and no-op answers definitely did not apply; timeouts and dropped connections may have. */
function settlementOf(
  capability: AnyCapability,
  summary: unknown,
  result: EffectResult,
  requiresApproval: boolean,
  via: "confirmed" | "recovered",
): Settlement {
  switch (result.status) {
    case "applied":
      return {
        ledger: {
          status: "applied",
          externalId: result.externalId ?? null,
          response: toJson(result.response),
          error: null,
        },
        status: "applied",
        lastError: null,
        response: {
          outcome: "applied",
          // What moved, as the person approved it, in the first words (what-was-done.ts).
          message: `${whatWasDone(capability, summary)}: done (${result.externalId ?? "no external id"}); verify it`,
          retryable: false,
        },
      };
    case "rejected":
      return {
        ledger: null,
        status: requiresApproval ? "approved" : "open",
        lastError: { code: result.code, message: result.message },
        response: { outcome: "rejected", reason: result.code, message: result.message, retryable: false },
      };
    case "not_applied":
      return {
        ledger: { status: "failed", error: `not_applied: ${result.message}` },
        status: "failed",
        lastError: { code: "not_applied", message: result.message },
        response: {
          outcome: "rejected",
          reason: "not_applied",
          // "Did not do it", not "changed nothing": a run of several requests may have done part.
          message: `The system answered but did not do it: ${result.message}`,
          retryable: true,
        },
      };
    case "unavailable":
      return {
        ledger: { status: "failed", error: `temporarily_unavailable: ${result.message}` },
        status: "failed",
        lastError: { code: "temporarily_unavailable", message: result.message },
        response: {
          outcome: "temporarily_unavailable",
          reason: "legacy_unavailable",
          message: `${result.message}; nothing was applied`,
          retryable: true,
        },
      };
    case "unknown":
      return {
        ledger: { status: "unknown", error: result.message },
        status: "unknown",
        lastError: { code: "unknown", message: result.message },
        response: {
          outcome: "unknown",
          reason: via === "recovered" ? "queued_for_recovery" : "outcome_unknown",
          message: `${result.message}: it may or may not have happened; verify before anything else`,
          retryable: false,
        },
      };
  }
}

/** Records what the system answered in the ledger, the action and its history, then answers. */
async function recordEffectResult(
  deps: EngineDeps,
  capability: AnyCapability,
  row: ActionRow,
  effect: EffectRow,
  result: EffectResult,
  via: "confirmed" | "recovered",
): Promise<ActionResponse> {
  const { db } = deps;
  const state = parseActionState(row.state);
  const settled = settlementOf(capability, state.summary, result, state.requires_approval, via);
  state.last_error = settled.lastError;
  if (result.status === "applied") state.recovery = null;
  // A recovery that still cannot tell what happened leaves the action to a person.
  if (result.status === "unknown" && via === "recovered")
    state.recovery = { queued_at: new Date().toISOString(), reason: result.message };
  // An effect that created the entity (checkout → order) names it from now on.
  const entityId = row.entityId ?? (result.status === "applied" ? (result.entityId ?? null) : null);
  const node = settled.status === "applied" ? "SUBMITTED" : row.node;
  // Ledger, action and history in one transaction: a concurrent recover or verify that reads
  // the ledger settled must find the action (and its "recovered" step) settled with it.
  await db.$transaction(async (tx) => {
    if (settled.ledger) await tx.effect.update({ where: { id: effect.id }, data: settled.ledger });
    else await tx.effect.delete({ where: { id: effect.id } });
    await tx.action.update({
      where: { id: row.id },
      data: { status: settled.status, entityId, node, state: toJson(state) },
    });
    await recordActionEvent(tx, {
      actionId: row.id,
      version: row.version,
      kind: via,
      node,
      data: { effect: result.status, key: effect.actionKey },
    });
  });
  const next = { ...row, status: settled.status, entityId, node, state: state as never };
  return respond(deps, capability, next, settled.response);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Answers a confirm (or recover) that found the effect already claimed: waits up to `waitMs`
 * for a sender in flight, then returns the first outcome, never a second effect. `scope` is the
 * caller's: support recovering someone else's action must see the winner's outcome, not not_found.
 */
export async function existingEffectOutcome(
  deps: EngineDeps,
  capability: AnyCapability,
  actor: Actor,
  actionId: string,
  idempotencyKey: string,
  waitMs: number,
  scope: ActorScope = "own",
): Promise<ActionResponse> {
  const { db } = deps;
  const deadline = Date.now() + waitMs;
  let effect = await db.effect.findUnique({ where: { actionId } });
  while (effect?.status === "pending" && Date.now() < deadline) {
    await sleep(50);
    effect = await db.effect.findUnique({ where: { actionId } });
  }
  const row = await loadAction(db, actor, actionId, scope);
  if (!row) return notFoundAction(actionId);
  if (!effect) {
    // The claim was released: the effect was refused or the action changed under the approval.
    const lastError = parseActionState(row.state).last_error;
    return respond(deps, capability, row, {
      outcome: lastError ? "rejected" : "conflict",
      reason: lastError?.code ?? "changed",
      message: lastError?.message ?? "The action changed; re-read it",
      retryable: false,
    });
  }
  const first = firstIdempotencyKey(effect);
  const sameKey = first === idempotencyKey;
  // The person's approval ran it (the gateway confirms with the action key): say so, as the
  // agent that comes back to confirm needs to hear that nothing was left for it to do.
  const byApproval = !sameKey && first === effect.actionKey;
  const prefix = byApproval
    ? "Sent when the user approved it (their approval carries it out; no second effect)"
    : sameKey
      ? "Replay of the first confirm"
      : "Already confirmed with another idempotency key; no second effect";
  const byStatus: Record<string, Pick<ActionResponse, "outcome" | "retryable">> = {
    applied: { outcome: "applied", retryable: false },
    pending: { outcome: "unknown", retryable: false },
    unknown: { outcome: "unknown", retryable: false },
    failed: { outcome: "temporarily_unavailable", retryable: true },
  };
  return respond(deps, capability, row, {
    ...(byStatus[effect.status] ?? { outcome: "unknown", retryable: false }),
    reason: byApproval ? "applied_on_approval" : sameKey ? "idempotent_replay" : "already_confirmed",
    message: `${prefix}: effect ${effect.status}${effect.externalId ? ` (${effect.externalId})` : ""}`,
  });
}
