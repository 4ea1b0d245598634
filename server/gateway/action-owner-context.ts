import type { Db } from "../db/client";
import { agentRowContext, findAgentWithUser, type Role, type TrustedContext } from "./trusted-context";

const ROLES = new Set<Role>(["admin", "support", "member"]);

/**
 * Who an action acts as when a person's approval runs it: read from the stored action (its
 * tenant, the agent that started it, the person it is for), never from the request that
 * approved it. The agent's own permissions and faces still apply, as if it had confirmed. Null
 * when that agent was revoked or moved, or the person left the tenant: then nothing runs.
 */
export async function actionOwnerContext(
  db: Db,
  action: { tenantId: string; agentId: string | null; userId: string },
  approver: Pick<TrustedContext, "face" | "requestId">,
): Promise<TrustedContext | null> {
  // The face is where the approval came from (the console, or the command line); the audit row
  // names the agent it acts for, and the request it came with.
  const face = approver.face === "cli" ? "cli" : "console";
  const requestId = approver.requestId;
  if (action.agentId) {
    const agent = await findAgentWithUser(db, action.agentId);
    if (!agent || agent.tenantId !== action.tenantId || agent.userId !== action.userId) return null;
    const ctx = agentRowContext(agent, agent.keyPrefix, face);
    return ctx && { ...ctx, requestId: requestId ?? null };
  }
  // Started by the person themselves (no agent): it acts as that person.
  const user = await db.user.findFirst({ where: { id: action.userId, tenantId: action.tenantId } });
  if (!user || !ROLES.has(user.role as Role)) return null;
  return {
    kind: "person",
    tenantId: action.tenantId,
    userId: user.id,
    email: user.email,
    name: user.name,
    role: user.role as Role,
    face,
    requestId: requestId ?? null,
  };
}
