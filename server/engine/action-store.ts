import { type Actor, type AnyCapability, DEFAULT_APPROVAL_TTL_MS } from "../connectors/sdk/define-capability";
import type { Db } from "../db/client";
import type { ActionState } from "./action-state";
import { requestApproval } from "./approval-ledger";
import type { EngineDeps } from "./engine-deps";

/** How actions and their effects are read and written: the rows, their history, approvals opened. */

export type ActionRow = NonNullable<Awaited<ReturnType<Db["action"]["findFirst"]>>>;
export type EffectRow = NonNullable<Awaited<ReturnType<Db["effect"]["findFirst"]>>>;

/** Actors acting for themselves see their own actions; support and admins in the console see the tenant's. */
export type ActorScope = "own" | "tenant";

/** A value as plain JSON, the way a Json column stores it. */
export const toJson = (value: unknown) => JSON.parse(JSON.stringify(value ?? {})) as never;

/** The action if the actor may see it; another tenant's or (in scope "own") another user's is null. */
export async function loadAction(
  db: Db,
  actor: Actor,
  actionId: string,
  scope: ActorScope = "own",
): Promise<ActionRow | null> {
  const row = await db.action.findFirst({ where: { id: actionId, tenantId: actor.tenantId } });
  if (!row) return null;
  // Another user's action is as invisible as another tenant's.
  if (scope === "own" && row.userId !== actor.userId) return null;
  return row;
}

/** The action with the capability it runs, or null when the actor may not see it (or it is not runnable here). */
export async function loadActionWithCapability(
  { db, capabilities }: Pick<EngineDeps, "db" | "capabilities">,
  actor: Actor,
  actionId: string,
  scope: ActorScope = "own",
): Promise<{ row: ActionRow; capability: AnyCapability } | null> {
  const row = await loadAction(db, actor, actionId, scope);
  const capability = row && capabilities.get(row.capability);
  return row && capability ? { row, capability } : null;
}

/** Appends one step to the action's history (ActionEvent); `db` may be a transaction's client. */
export async function recordActionEvent(
  db: Pick<Db, "actionEvent">,
  event: { actionId: string; version: number; kind: string; node: string; data: unknown },
): Promise<void> {
  await db.actionEvent.create({ data: { ...event, data: toJson(event.data) } });
}

/**
 * Opens the pending approval of this version (bound to its summary digest, valid for the
 * policy's time) and notes it in the history.
 */
export async function openApproval(
  db: Db,
  row: ActionRow,
  state: ActionState,
  ttlMs: number = DEFAULT_APPROVAL_TTL_MS,
): Promise<void> {
  await requestApproval(db, {
    ttlMs,
    actionId: row.id,
    tenantId: row.tenantId,
    userId: row.userId,
    version: row.version,
    digest: state.digest ?? "",
    summary: state.summary ?? {},
  });
  await recordActionEvent(db, {
    actionId: row.id,
    version: row.version,
    kind: "approval_requested",
    node: row.node,
    data: { digest: state.digest },
  });
}
