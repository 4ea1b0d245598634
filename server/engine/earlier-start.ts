import type { Actor } from "../connectors/sdk/define-capability";
import { loadActionWithCapability } from "./action-store";
import type { EngineDeps } from "./engine-deps";

/** Ended with nothing run: such an action has no outcome to repeat, and the same request may start anew. */
const ENDED_UNRUN = new Set(["cancelled", "refused"]);

/**
 * The action a start key (Action.startKey) already made for this caller, with its capability and
 * the whole key it was stored under; null when there is none. One lookup for both keys of a start:
 * the agent's own (`{ startsWith }` its prefix, what was asked follows; no window: "once, however
 * late the resend") and the server's (the whole key, with `windowMs`). A windowed key past its
 * window (or whose action ended with nothing run) gives its key up, so the request starts anew;
 * conditionally, so two such starts at once free it once and the unique key admits one new action
 * between them. Nothing of a request outlives its action's row.
 */
export async function earlierStart(
  deps: EngineDeps,
  actor: Actor,
  startKey: string | { startsWith: string },
  windowMs?: number,
) {
  const earlier = await deps.db.action.findFirst({
    where: { tenantId: actor.tenantId, startKey },
    select: { id: true, startKey: true, createdAt: true, status: true },
  });
  if (!earlier) return null;
  const live =
    windowMs === undefined ||
    (Date.now() - earlier.createdAt.getTime() < windowMs && !ENDED_UNRUN.has(earlier.status));
  const found = live ? await loadActionWithCapability(deps, actor, earlier.id) : null;
  if (found) return { ...found, startKey: earlier.startKey };
  if (windowMs !== undefined)
    await deps.db.action.updateMany({
      where: { id: earlier.id, startKey: earlier.startKey },
      data: { startKey: null },
    });
  return null;
}
