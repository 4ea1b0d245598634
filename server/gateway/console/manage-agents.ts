import { z } from "zod";
import type { Db } from "../../db/client";
import { revokeOAuthGrants } from "../../oauth/prisma-oauth-adapter";
import { AGENT_FACES, type AgentFace, parseAgentFaces } from "../agent-faces";
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
  /** The faces an admin chose for the key; null: the default faces (actions and browse). */
  faces: AgentFace[] | null;
};

/** The faces for one key, or null to give it the default faces again. */
export const setAgentFacesInputSchema = z
  .object({ faces: z.array(z.enum(AGENT_FACES)).min(1).max(AGENT_FACES.length).nullable() })
  .strict();

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
    faces: parseAgentFaces(a.faces),
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
      faces: null,
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

/**
 * Chooses the faces an agent key's tools/list offers (the definitions its model reads before each
 * task): a key for a bulk-work agent may add the script face, a narrow one keep actions only.
 * A connected app's faces come from the scopes its person granted, not from here.
 */
export async function setAgentFaces(
  db: Db,
  ctx: AdminActor,
  agentId: string,
  input: z.infer<typeof setAgentFacesInputSchema>,
): Promise<ConsoleResult<{ id: string; faces: AgentFace[] | null }>> {
  const startedAt = Date.now();
  const agent = await db.agent.findFirst({ where: { id: agentId, tenantId: ctx.tenantId } });
  if (!agent) return fail("not_found", "No such agent.");
  if (agent.oauthClientId)
    return fail(
      "conflict",
      "A connected app's faces are the scopes its person granted; revoke it to change them.",
    );
  const faces = input.faces ? AGENT_FACES.filter((f) => input.faces?.includes(f)) : null;
  await db.agent.updateMany({
    where: { id: agentId, tenantId: ctx.tenantId },
    data: { faces: faces ? faces.join(",") : null },
  });
  await recordConsoleAudit(db, ctx, {
    operation: "agent.faces_set",
    target: agentId,
    arguments: { keyPrefix: agent.keyPrefix, faces: faces ?? "default" },
    outcome: "applied",
    startedAt,
  });
  return ok({ id: agentId, faces });
}
