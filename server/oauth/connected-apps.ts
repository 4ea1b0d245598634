import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import { agentContext, type TrustedContext } from "../gateway/trusted-context";

/**
 * An app a person connected by OAuth is an agent like any other (the Agents page, permissions,
 * budgets, audit and the monitor name it), acting for that person: one agent row per (person,
 * client) connection. Revoking it stops its tokens at once on every instance (each call looks
 * the row up); connecting again after a revoke makes a new row, and tokens name the row they
 * were issued for, so tokens issued before the revoke never come back to life.
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

/** The token claim naming the connected app's agent row, set when the token is issued. */
export const AGENT_CLAIM = "signpost_agent";

/** The agent a token for (person, client) is issued to: the live connection, if there is one. */
export async function connectedAppOf(db: Db, userId: string, clientId: string): Promise<string | null> {
  const agent = await db.agent.findFirst({
    where: { userId, oauthClientId: clientId, revokedAt: null },
    select: { id: true },
  });
  return agent?.id ?? null;
}

/**
 * The trusted context of a verified access token: the connection (agent row) it was issued to,
 * which must still be live and still be this person's connection of this client. A token from
 * before a revoke names the revoked row, so connecting again never brings it back.
 */
export async function identifyConnectedApp(
  db: Db,
  claims: { sub: string; clientId: string; agentId: string },
): Promise<TrustedContext | null> {
  const agent = await db.agent.findUnique({ where: { id: claims.agentId }, include: { user: true } });
  if (!agent || agent.userId !== claims.sub || agent.oauthClientId !== claims.clientId) return null;
  return agentContext(db, agent, OAUTH_KEY_PREFIX);
}
