import { z } from "zod";
import type { Db } from "../../db/client";
import { revokeOAuthGrants } from "../../oauth/prisma-oauth-adapter";
import { mintAgentKey } from "../agent-keys";
import type { ConsoleContext } from "../console-session";
import { type ConsoleResult, fail, ok } from "./console-result";
import { type AdminActor, recordConsoleAudit } from "./record-console-audit";

export type AgentView = {
  id: string;
  name: string;
  userId: string;
  userName: string;
  userEmail: string;
  keyPrefix: string;
  revokedAt: string | null;
  /** The admin who revoked the key, named. */
  revokedBy: string | null;
  lastUsedAt: string | null;
  createdAt: string;
};

export const createAgentInputSchema = z
  .object({
    name: z.string().trim().min(1).max(80),
    /** The person the agent acts for; must be in the admin's tenant. */
    userId: z.string().trim().min(1).max(100),
  })
  .strict();

export async function listAgents(db: Db, ctx: ConsoleContext): Promise<AgentView[]> {
  const rows = await db.agent.findMany({
    where: { tenantId: ctx.tenantId },
    orderBy: { createdAt: "desc" },
    include: { user: { select: { name: true, email: true } } },
  });
  const revokers = await db.user.findMany({
    where: {
      tenantId: ctx.tenantId,
      id: { in: rows.flatMap((a) => (a.revokedById ? [a.revokedById] : [])) },
    },
    select: { id: true, name: true },
  });
  const revoker = new Map(revokers.map((u) => [u.id, u.name]));
  return rows.map((a) => ({
    id: a.id,
    name: a.name,
    userId: a.userId,
    userName: a.user.name,
    userEmail: a.user.email,
    keyPrefix: a.keyPrefix,
    revokedAt: a.revokedAt?.toISOString() ?? null,
    revokedBy: a.revokedById ? (revoker.get(a.revokedById) ?? null) : null,
    lastUsedAt: a.lastUsedAt?.toISOString() ?? null,
    createdAt: a.createdAt.toISOString(),
  }));
}

export async function listTenantUsers(db: Db, ctx: ConsoleContext) {
  return db.user.findMany({
    where: { tenantId: ctx.tenantId },
    orderBy: { email: "asc" },
    select: { id: true, name: true, email: true, role: true },
  });
}

/** Mints an agent key; the full key is returned only here, once — the database keeps its hash and prefix. */
export async function createAgent(
  db: Db,
  ctx: AdminActor,
  input: z.infer<typeof createAgentInputSchema>,
): Promise<ConsoleResult<{ agent: AgentView; key: string }>> {
  const startedAt = Date.now();
  const user = await db.user.findFirst({ where: { id: input.userId, tenantId: ctx.tenantId } });
  if (!user) return fail("not_found", "No such user in this tenant.");
  const minted = await mintAgentKey();
  const agent = await db.agent.create({
    data: {
      tenantId: ctx.tenantId,
      name: input.name,
      userId: user.id,
      keyHash: minted.keyHash,
      keyPrefix: minted.keyPrefix,
    },
  });
  await recordConsoleAudit(db, ctx, {
    operation: "agent.created",
    target: agent.id,
    arguments: { name: input.name, userId: user.id, keyPrefix: minted.keyPrefix },
    outcome: "applied",
    startedAt,
  });
  return ok({
    key: minted.key,
    agent: {
      id: agent.id,
      name: agent.name,
      userId: user.id,
      userName: user.name,
      userEmail: user.email,
      keyPrefix: agent.keyPrefix,
      revokedAt: null,
      revokedBy: null,
      lastUsedAt: null,
      createdAt: agent.createdAt.toISOString(),
    },
  });
}

export async function revokeAgent(
  db: Db,
  ctx: AdminActor,
  agentId: string,
): Promise<ConsoleResult<{ id: string }>> {
  const startedAt = Date.now();
  const agent = await db.agent.findFirst({ where: { id: agentId, tenantId: ctx.tenantId } });
  if (!agent) return fail("not_found", "No such agent.");
  if (agent.revokedAt) return fail("conflict", "This agent is already revoked.");
  await db.agent.updateMany({
    where: { id: agentId, tenantId: ctx.tenantId, revokedAt: null },
    data: { revokedAt: new Date(), revokedById: ctx.userId },
  });
  // A connected app's refresh tokens and grant go too: it cannot mint new access tokens.
  if (agent.oauthClientId) await revokeOAuthGrants(db, agent.userId, agent.oauthClientId);
  await recordConsoleAudit(db, ctx, {
    operation: "agent.revoked",
    target: agentId,
    arguments: { keyPrefix: agent.keyPrefix },
    outcome: "applied",
    startedAt,
  });
  return ok({ id: agentId });
}
