import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import type { Role, TrustedContext } from "../gateway/trusted-context";

/**
 * An app a person connected by OAuth is an agent like any other (the Agents page, permissions,
 * budgets, audit and the monitor name it), acting for that person: one agent row per (person,
 * client) connection. Revoking it stops its tokens at once on every instance (each call looks
 * the row up); connecting again after a revoke makes a new row, so tokens issued before the
 * revoke never come back to life.
 */

/** Shown instead of a key prefix for connected apps (they have no key). */
export const OAUTH_KEY_PREFIX = "oauth";

export async function connectApp(
  db: Db,
  input: { tenantId: string; userId: string; clientId: string; appName: string },
): Promise<{ id: string }> {
  const existing = await db.agent.findFirst({
    where: { userId: input.userId, oauthClientId: input.clientId, revokedAt: null },
    select: { id: true },
  });
  if (existing) return existing;
  return db.agent.create({
    data: {
      tenantId: input.tenantId,
      userId: input.userId,
      name: input.appName.slice(0, 100),
      oauthClientId: input.clientId,
      // No key exists: the hash of random bytes nobody holds keeps the column's uniqueness.
      keyHash: createHash("sha256").update(randomBytes(32)).digest("hex"),
      keyPrefix: OAUTH_KEY_PREFIX,
    },
    select: { id: true },
  });
}

const ROLES = new Set<Role>(["admin", "support", "member"]);
/** Clock skew allowed between the instance that issued a token and the one that recorded the connection. */
const ISSUED_SKEW_MS = 5_000;

/**
 * The trusted context of a verified access token: the person it was granted by (`sub`), through
 * the app it was granted to (`client_id`). Null when that connection is revoked, or was made
 * after the token was issued (a token from before a revoke), or the person left the tenant.
 */
export async function identifyConnectedApp(
  db: Db,
  claims: { sub: string; clientId: string; issuedAt: number },
): Promise<TrustedContext | null> {
  const agent = await db.agent.findFirst({
    where: { userId: claims.sub, oauthClientId: claims.clientId, revokedAt: null },
    include: { user: true },
  });
  if (!agent || agent.user.tenantId !== agent.tenantId) return null;
  if (agent.createdAt.getTime() > claims.issuedAt * 1000 + ISSUED_SKEW_MS) return null;
  const role = agent.user.role as Role;
  if (!ROLES.has(role)) return null;
  db.agent.update({ where: { id: agent.id }, data: { lastUsedAt: new Date() } }).catch(() => undefined);
  return {
    kind: "agent",
    tenantId: agent.tenantId,
    userId: agent.userId,
    email: agent.user.email,
    name: agent.user.name,
    role,
    agentId: agent.id,
    agentName: agent.name,
    agentKeyPrefix: OAUTH_KEY_PREFIX,
    face: "actions",
  };
}
