import type { ActionResponse } from "./action-response";
import { parseActionState } from "./action-state";
import { type ActorScope, loadAction, toJson } from "./action-store";
import { type AdvanceInput, advanceAction } from "./advance-action";
import { type ConfirmInput, confirmAction } from "./confirm-action";
import type { Actor } from "./define-capability";
import { actionKeyFor, effectContext, leaseUntil } from "./effect-ledger";
import type { EngineDeps } from "./engine-deps";
import { getActionContext } from "./get-action-context";
import { recoverAction } from "./recover-action";
import { type StartInput, startAction } from "./start-action";
import { verifyAction } from "./verify-action";

/**
 * The capability runtime: start → advance* → (a person approves) → confirm → verify, and
 * recover for effects whose outcome is unknown. Every operation answers an ActionResponse;
 * each lives in its own file, named after it.
 */
export function createActionEngine(options: Omit<EngineDeps, "approvalUrl"> & Partial<EngineDeps>) {
  const deps: EngineDeps = { ...options, approvalUrl: options.approvalUrl ?? ((id) => `/confirm/${id}`) };
  return {
    capabilities: deps.capabilities,
    /** Creates an action, applying the optional first patch in node order; never executes an effect. */
    start: (actor: Actor, input: StartInput): Promise<ActionResponse> => startAction(deps, actor, input),
    /** Applies a patch to the current version (stale → conflict), re-runs the nodes, bumps the version. */
    advance: (actor: Actor, input: AdvanceInput): Promise<ActionResponse> =>
      advanceAction(deps, actor, input),
    /** Re-reads an action to resume it, with its inputs and the JSON Schema of the patch it accepts now. */
    getActionContext: (actor: Actor, actionId: string, scope?: ActorScope): Promise<ActionResponse> =>
      getActionContext(deps, actor, actionId, scope),
    /** Executes the effect at most once, after a person approved this version and digest. */
    confirm: (actor: Actor, input: ConfirmInput): Promise<ActionResponse> =>
      confirmAction(deps, actor, input),
    /** Asks the system of record what really happened and records it. */
    verify: (actor: Actor, actionId: string, scope?: ActorScope): Promise<ActionResponse> =>
      verifyAction(deps, actor, actionId, scope),
    /** Reconciles an unknown, failed or abandoned effect: verify first, then record, re-send with the same key, or queue. */
    recover: (actor: Actor, actionId: string, scope?: ActorScope): Promise<ActionResponse> =>
      recoverAction(deps, actor, actionId, scope),
    /** Internal step, exported for crash tests: claim without sending. */
    async claimEffectForTest(actor: Actor, actionId: string, idempotencyKey: string) {
      const row = await loadAction(deps.db, actor, actionId);
      if (!row) throw new Error("no action");
      const capability = deps.capabilities.get(row.capability);
      if (!capability?.effect) throw new Error("no effect");
      const state = parseActionState(row.state);
      const effect = await deps.db.effect.create({
        data: {
          actionId: row.id,
          actionKey: actionKeyFor(row),
          tenantId: row.tenantId,
          kind: capability.effect.kind,
          status: "pending",
          request: toJson({
            idempotency_key: idempotencyKey,
            version: row.version,
            digest: state.digest,
            lease_until: leaseUntil(capability),
          }),
          attempts: 1,
        },
      });
      await deps.db.action.update({ where: { id: row.id }, data: { status: "executing" } });
      const ctx = await effectContext(deps, capability, actor, state, effect.actionKey);
      return {
        effect,
        /** Sends the effect without recording the answer: what a crash right after sending leaves behind. */
        send: () => capability.effect?.execute(ctx),
      };
    },
  };
}

export type ActionEngine = ReturnType<typeof createActionEngine>;
