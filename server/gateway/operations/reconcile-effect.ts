import { failureOutcome } from "../failure-outcome";
import type { GatewayOutcome } from "../gateway-pipeline";
import { capabilityTarget } from "../permissions";
import type { Role } from "../trusted-context";
import type { GatewayDeps } from "./gateway-deps";

/** effect.reconciled: the background reconcile job's verify of one action by its key (no caller). */
export function reconcileEffectOperation({ db, engine, audit }: GatewayDeps) {
  /**
   * The reconcile job's look at one action (face `system`, no person or agent behind it): the
   * engine's own verify asks the system of record by action key and records what it says —
   * applied and completed when it shows the effect, the check noted and the action left for
   * recover_action or a person when it does not. It never sends a write. Audited
   * `effect.reconciled` in the action's tenant.
   */
  async function reconcileEffect(actionId: string): Promise<GatewayOutcome> {
    const started = Date.now();
    const row = await db.action.findUnique({
      where: { id: actionId },
      select: { tenantId: true, userId: true, agentId: true, capability: true },
    });
    if (!row)
      return {
        outcome: "not_found",
        reason: "action_not_found",
        message: `No action ${actionId}`,
        retryable: false,
        next_actions: [],
      };
    const user = await db.user.findUnique({ where: { id: row.userId }, select: { email: true, role: true } });
    // The action's own person as the actor (what the capability's lookup may ask about), seen
    // tenant-wide: the job acts for support, not for the agent.
    const actor = {
      tenantId: row.tenantId,
      userId: row.userId,
      email: user?.email ?? "",
      role: (user?.role ?? "member") as Role,
      agentId: row.agentId ?? undefined,
    };
    let out: GatewayOutcome;
    try {
      out = (await engine.verify(actor, actionId, "tenant")) as GatewayOutcome;
    } catch (err) {
      out = failureOutcome(err, "gateway effect.reconciled");
    }
    const effect = out.effect as { action_key?: string } | null | undefined;
    await audit(
      { tenantId: row.tenantId, userId: null, face: "system" },
      {
        operation: "effect.reconciled",
        target: capabilityTarget(row.capability),
        capability: row.capability,
        arguments: { action_id: actionId },
        outcome: out.outcome,
        message: out.message,
        latencyMs: Date.now() - started,
        actionId,
        actionKey: effect?.action_key ?? null,
      },
    );
    return out;
  }

  return reconcileEffect;
}
