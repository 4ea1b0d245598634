import type { Actor } from "../connectors/sdk/define-capability";
import type { Db } from "../db/client";
import { type AgentFace, parseAgentFaces } from "./agent-faces";
import { hashAgentKey } from "./agent-keys";
import type { ConsoleContext } from "./console-session";
import type { PermissionDecision } from "./permission-decision";

export type Role = "admin" | "support" | "member";
export type Face = "actions" | "browse" | "script" | "console" | "cli" | "system";

/**
 * Who is calling, established from a credential and never from arguments: an agent (its API
 * key says tenant, agent and the user it acts for, with that user's role) or a person (a
 * console session).
 */
export interface TrustedContext {
  kind: "agent" | "person";
  tenantId: string;
  userId: string;
  email: string;
  name: string;
  role: Role;
  agentId?: string;
  agentName?: string;
  /** The visible part of the agent's key (`sp_…`), for log lines: never the key. */
  agentKeyPrefix?: string;
  /** The faces an admin chose for this agent key (the Agents page); absent: the default faces. */
  agentFaces?: AgentFace[];
  face: Face;
  /** The HTTP request this call came with (server/gateway/request-id.ts); its audit row keeps it. */
  requestId?: string | null;
  /**
   * Tenant.configVersion as read at the start of this call (with the tenant row the MCP face
   * reads anyway): the stamp of the cached rules, settings, secrets and imported connectors this
   * call uses (tenant-config-snapshot.ts). Absent: each read checks the stamp itself.
   */
  tenantVersion?: number;
  /**
   * The agent's Agent.appliedActionsVersion as read at the start of this call, with the same row:
   * the stamp of the cached "which of these records did this agent create" (created-by-agent.ts).
   * Absent: that answer is read from the action store.
   */
  appliedActionsVersion?: number;
  /**
   * The target (URI) of the browse page being rendered, set only on the backend navigate scopes
   * to that page: a read of that same target, allowed and applied, is recorded by the page's own
   * row and writes no second one. Any other read (a search's, another record's) and a refused or
   * failed one still write their own rows.
   */
  auditedPage?: string;
  /**
   * The decision that allowed that page's navigate, once it is made. The page's read of its own
   * target is part of the same call and is decided by it, not asked again: a one-time grant the
   * navigate used allows the page it was given for, record included (asked twice, the read found
   * the grant used and the page never showed).
   */
  pageDecision?: PermissionDecision;
}

const ROLES = new Set<Role>(["admin", "support", "member"]);

/** How fresh an agent's `lastUsedAt` is kept. */
export const LAST_USE_RESOLUTION_MS = 60_000;

/** Resolves `Authorization: Bearer <agent key>` (or the bare key) to a trusted context; null when missing, unknown or revoked. */
export async function identifyAgent(
  db: Db,
  bearer: string | null | undefined,
  face: Face = "actions",
): Promise<TrustedContext | null> {
  if (!bearer) return null;
  const key = bearer.replace(/^Bearer\s+/i, "").trim();
  if (!key || key.length > 200) return null;
  const agent = await db.agent.findUnique({ where: { keyHash: hashAgentKey(key) }, include: { user: true } });
  return agent ? agentContext(db, agent, agent.keyPrefix, face) : null;
}

export type AgentWithUser = NonNullable<Awaited<ReturnType<typeof findAgentWithUser>>>;
export function findAgentWithUser(db: Db, id: string) {
  return db.agent.findUnique({ where: { id }, include: { user: true } });
}

/**
 * The context an agent row acts with, however it was found (an agent key, an OAuth token naming
 * it): null when revoked, moved out of its person's tenant, or its person's role is unknown.
 */
export function agentContext(
  db: Db,
  agent: AgentWithUser,
  keyPrefix: string,
  face: Face = "actions",
): TrustedContext | null {
  const ctx = agentRowContext(agent, keyPrefix, face);
  // Last use is informative only (the console shows it to the minute); a failed write must not
  // fail the call. Written at most once a LAST_USE_RESOLUTION_MS per key: a write on every call
  // cost each call a database write (on SQLite, the file's one writer) for nothing anyone reads.
  if (ctx) noteLastUse(db, agent.id, agent.lastUsedAt?.getTime() ?? null);
  return ctx;
}

/**
 * The context an agent row acts with, without noting a use: also what a person's approval runs
 * the agent's action with (the agent did not call). Null when revoked, moved out of its
 * person's tenant, or its person's role is unknown.
 */
export function agentRowContext(agent: AgentWithUser, keyPrefix: string, face: Face): TrustedContext | null {
  if (agent.revokedAt || agent.user.tenantId !== agent.tenantId) return null;
  const role = agent.user.role as Role;
  if (!ROLES.has(role)) return null;
  const faces = parseAgentFaces(agent.faces);
  return {
    kind: "agent",
    tenantId: agent.tenantId,
    userId: agent.userId,
    email: agent.user.email,
    name: agent.user.name,
    role,
    agentId: agent.id,
    agentName: agent.name,
    agentKeyPrefix: keyPrefix,
    ...(faces ? { agentFaces: faces } : {}),
    face,
  };
}

/**
 * Records an agent's use unless it was recorded within LAST_USE_RESOLUTION_MS (`lastUsedAt`: the
 * time last written, as the caller knows it); returns the time now recorded. Fire and forget.
 */
export function noteLastUse(db: Db, agentId: string, lastUsedAt: number | null): number | null {
  const now = Date.now();
  if (lastUsedAt !== null && now - lastUsedAt < LAST_USE_RESOLUTION_MS) return lastUsedAt;
  db.agent.update({ where: { id: agentId }, data: { lastUsedAt: new Date(now) } }).catch(() => undefined);
  return now;
}

/** A signed-in person's context, from the console session (server/gateway/console-session.ts). */
export function personContext(session: ConsoleContext, face: Face = "console"): TrustedContext {
  return {
    kind: "person",
    tenantId: session.tenantId,
    userId: session.userId,
    email: session.email,
    name: session.name,
    role: session.role,
    face,
    requestId: session.requestId ?? null,
  };
}

/** The same caller within one HTTP request: its audit rows name the request. */
export function withRequestId(ctx: TrustedContext, requestId: string | null): TrustedContext {
  return requestId ? { ...ctx, requestId } : ctx;
}

/** The same caller seen through another face (e.g. browse calling into the action engine). */
export function withFace(ctx: TrustedContext, face: Face): TrustedContext {
  return { ...ctx, face };
}

/** What capabilities may know about the caller. */
export function actorOf(ctx: TrustedContext): Actor {
  return {
    tenantId: ctx.tenantId,
    userId: ctx.userId,
    email: ctx.email,
    role: ctx.role,
    agentId: ctx.agentId,
  };
}
