import { parseActionState } from "../../engine/action-state";
import { capabilityTarget } from "../permissions";
import type { TrustedContext } from "../trusted-context";
import type { GatewayDeps } from "./gateway-deps";

/** What an operation on an existing action is authorized against: the action's capability. */
export async function actionTarget(
  { db, capabilities }: Pick<GatewayDeps, "db" | "capabilities">,
  ctx: TrustedContext,
  actionId: string,
) {
  const row = await db.action.findFirst({
    where: { id: actionId, tenantId: ctx.tenantId },
    select: { capability: true },
  });
  const capability = row ? capabilities.get(row.capability) : undefined;
  return { target: capability ? capabilityTarget(capability.id) : `action:${actionId}`, capability };
}

/**
 * An action step that carries out a write (advance, confirm, recover): authorized against
 * what the action does where its capability names that (an imported write's form URI, read
 * from the action's own fixed values), as its start was; otherwise against the capability.
 */
export async function writeStepTarget(
  deps: Pick<GatewayDeps, "db" | "capabilities" | "connectorsFor">,
  ctx: TrustedContext,
  actionId: string,
) {
  const { db, connectorsFor } = deps;
  const found = await actionTarget(deps, ctx, actionId);
  if (!found.capability?.permissionTarget) return found;
  const row = await db.action.findFirst({
    where: { id: actionId, tenantId: ctx.tenantId },
    select: { state: true },
  });
  const values = row ? parseActionState(row.state).values : {};
  const form = found.capability.permissionTarget(values, await connectorsFor(ctx));
  return form === found.target ? found : { ...found, form };
}
