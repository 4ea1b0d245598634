import { z } from "zod";
import type { Db } from "../db/client";
import { publishAttention } from "../engine/attention-events";
import { redactText } from "../redact-secrets";
import { canonicalPermissionTarget, parsePermissionPattern } from "./permission-pattern";
import { MAX_PERMISSION_RULES } from "./permissions";
import type { TrustedContext } from "./trusted-context";

/** New requests one agent may store per hour; past it the answer stays permission_required, stored nowhere. */
export const PERMISSION_REQUESTS_PER_HOUR = 20;
/** How long an admin's "no" is the answer to the same request, instead of asking again. */
export const DENIAL_STANDS_MS = 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

export type PermissionRequestRow = Awaited<ReturnType<Db["permissionRequest"]["create"]>>;

/** What asking for a permission came to. Only `stored` wrote a row. */
export type PermissionAsk =
  | { kind: "stored"; request: PermissionRequestRow }
  | { kind: "reused"; request: PermissionRequestRow }
  | { kind: "denied"; request: PermissionRequestRow }
  | { kind: "limited"; limit: number }
  | {
      kind: "not_stored";
      why: "dry_run" | "not_an_agent" | "invalid_target" | "not_the_agents_call";
      problem?: string;
    };

/** The request an answer may name (the agent's own), or null. */
export function askedRequest(ask: PermissionAsk): PermissionRequestRow | null {
  return ask.kind === "stored" || ask.kind === "reused" || ask.kind === "denied" ? ask.request : null;
}

/** The sentence an agent reads about its request, after the decision's own message. */
export function permissionAskMessage(ask: PermissionAsk): string {
  switch (ask.kind) {
    case "stored":
      return `Request ${ask.request.id} is waiting for an admin; retry after it is granted.`;
    case "reused":
      return ask.request.status === "granted"
        ? `Request ${ask.request.id} was granted; retry now.`
        : `Request ${ask.request.id} is already waiting for an admin; retry after it is granted.`;
    case "denied":
      return `An admin denied request ${ask.request.id}${ask.request.decidedAt ? ` at ${ask.request.decidedAt.toISOString()}` : ""}; asking again is possible an hour after that, or ask a person.`;
    case "limited":
      return `This agent already asked for ${ask.limit} permissions in the last hour, so this request was not stored; ask again later, or ask an admin directly.`;
    case "not_stored":
      return ask.why === "dry_run"
        ? "Nothing was stored for a dry run; make the call for real to ask an admin."
        : ask.why === "not_the_agents_call"
          ? "No request was stored: a person's approval ran this, not the agent; the agent's own next call asks an admin."
          : ask.why === "invalid_target"
            ? `No request was stored: ${ask.problem ?? "the target is not one Signpost authorizes"}.`
            : "Ask an admin for a rule.";
  }
}

/**
 * Asks an admin for `verb` on `target` on the agent's behalf, at most once per agent and
 * (verb, target): a pending (or granted, not yet used) request is reused, a recent denial is
 * the answer, and at most PERMISSION_REQUESTS_PER_HOUR new requests per agent per hour are
 * stored. A dry run stores nothing: reading never writes. Agents request; only admins grant.
 *
 * The check and the insert run in one transaction that first writes the agent's row, which
 * serializes one agent's requests (row lock on PostgreSQL, the write lock on SQLite), so
 * concurrent calls — a JSON-RPC batch — cannot each find nothing and each insert.
 */
export async function storePermissionRequest(
  db: Db,
  ctx: TrustedContext,
  input: { verb: string; target: string; reason?: string; dryRun?: boolean; now?: Date },
): Promise<PermissionAsk> {
  if (!ctx.agentId) return { kind: "not_stored", why: "not_an_agent" };
  const canonical = canonicalPermissionTarget(input.target);
  if (!canonical.ok) return { kind: "not_stored", why: "invalid_target", problem: canonical.problem };
  // An admin reads every stored request: a target that carries a credential (an id the agent
  // filled with a key) is not kept, and no id worth granting looks like one.
  if (redactText(canonical.target) !== canonical.target)
    return {
      kind: "not_stored",
      why: "invalid_target",
      problem: "the target holds what looks like a credential; nothing was stored",
    };
  if (input.dryRun) return { kind: "not_stored", why: "dry_run" };
  const agentId = ctx.agentId;
  const target = canonical.target;
  const now = input.now ?? new Date();
  const ask = await db.$transaction(
    async (tx): Promise<PermissionAsk> => {
      await tx.agent.updateMany({
        where: { id: agentId, tenantId: ctx.tenantId },
        data: { lastUsedAt: now },
      });
      const same = { tenantId: ctx.tenantId, agentId, verb: input.verb, target };
      const open = await tx.permissionRequest.findFirst({
        where: { ...same, OR: [{ status: "pending" }, { status: "granted", grantMode: "once" }] },
        orderBy: { createdAt: "asc" },
      });
      if (open) return { kind: "reused", request: open };
      const denied = await tx.permissionRequest.findFirst({
        where: { ...same, status: "denied", decidedAt: { gt: new Date(now.getTime() - DENIAL_STANDS_MS) } },
        orderBy: { decidedAt: "desc" },
      });
      if (denied) return { kind: "denied", request: denied };
      const lastHour = await tx.permissionRequest.count({
        where: { tenantId: ctx.tenantId, agentId, createdAt: { gt: new Date(now.getTime() - HOUR_MS) } },
      });
      if (lastHour >= PERMISSION_REQUESTS_PER_HOUR)
        return { kind: "limited", limit: PERMISSION_REQUESTS_PER_HOUR };
      const request = await tx.permissionRequest.create({
        data: {
          ...same,
          reason: input.reason ? redactText(input.reason).slice(0, 500) : null,
          status: "pending",
          createdAt: now,
        },
      });
      return { kind: "stored", request };
    },
    // Many calls of one agent queue here one after the other; give them time to.
    { maxWait: 15_000, timeout: 15_000 },
  );
  // After the commit: the admins can be told (a new request only, not one reused or refused).
  if (ask.kind === "stored")
    publishAttention({ kind: "permission_request", tenantId: ctx.tenantId, requestId: ask.request.id });
  return ask;
}

export const decidePermissionRequestInputSchema = z
  .object({
    request_id: z.string().min(1).max(64).describe("The permission request to decide"),
    decision: z.enum(["grant", "deny"]).describe("grant or deny"),
    mode: z
      .enum(["once", "rule"])
      .default("once")
      .describe("once: allow the next matching call only; rule: add an allow rule for this agent"),
  })
  .strict();

/**
 * An admin's decision on an agent's request. A person's context is required: no agent can
 * grant anything, least of all to itself.
 */
export async function decidePermissionRequest(
  db: Db,
  ctx: TrustedContext,
  input: z.infer<typeof decidePermissionRequestInputSchema>,
) {
  if (ctx.kind !== "person" || ctx.role !== "admin")
    return {
      ok: false as const,
      reason: "admin_required",
      message: "Only an admin, signed in as a person, can decide permission requests",
    };
  const request = await db.permissionRequest.findFirst({
    where: { id: input.request_id, tenantId: ctx.tenantId },
  });
  if (!request) return { ok: false as const, reason: "not_found", message: "No such request" };
  if (request.status !== "pending")
    return {
      ok: false as const,
      reason: "already_decided",
      message: `The request is already ${request.status}`,
    };
  // A rule's pattern is the request's target, read by the same grammar as every rule: a target
  // it cannot read (a row older than target validation) is refused rather than stored as a rule
  // that would never match.
  const rulePattern =
    input.decision === "grant" && input.mode === "rule"
      ? parsePermissionPattern(request.target, { check: "syntax" })
      : null;
  if (rulePattern && !rulePattern.ok)
    return {
      ok: false as const,
      reason: "invalid_pattern",
      message: `The request's target cannot be a rule (${rulePattern.problem}); grant it once, or write a rule`,
    };
  if (
    input.decision === "grant" &&
    input.mode === "rule" &&
    (await db.permissionRule.count({ where: { tenantId: ctx.tenantId } })) >= MAX_PERMISSION_RULES
  )
    return {
      ok: false as const,
      reason: "rule_limit",
      message: `This tenant has ${MAX_PERMISSION_RULES} rules, the most it may have; grant once, or merge rules first`,
    };
  const status = input.decision === "deny" ? "denied" : "granted";
  // One transaction: a request marked granted as a rule without its rule would leave the agent
  // stuck (no longer pending, yet nothing allows it).
  const decided = await db.$transaction(async (tx): Promise<{ ruleId: string | null } | null> => {
    // Conditional on still pending: two admins deciding at once cannot both win.
    const updated = await tx.permissionRequest.updateMany({
      where: { id: request.id, status: "pending" },
      data: {
        status,
        grantMode: input.decision === "grant" ? input.mode : null,
        decidedById: ctx.userId,
        decidedAt: new Date(),
      },
    });
    if (updated.count === 0) return null;
    if (input.decision !== "grant" || input.mode !== "rule") return { ruleId: null };
    const first = await tx.permissionRule.findFirst({
      where: { tenantId: ctx.tenantId },
      orderBy: { position: "asc" },
    });
    const rule = await tx.permissionRule.create({
      data: {
        tenantId: ctx.tenantId,
        subjectType: "agent",
        subjectId: request.agentId,
        verb: request.verb,
        pattern: rulePattern?.ok ? rulePattern.pattern : request.target,
        decision: "allow",
        position: (first?.position ?? 1) - 1,
        note: `granted from request ${request.id}`,
        createdById: ctx.userId,
      },
    });
    return { ruleId: rule.id };
  });
  if (!decided)
    return { ok: false as const, reason: "already_decided", message: "The request was decided meanwhile" };
  const { ruleId } = decided;
  return { ok: true as const, status, ruleId, request };
}
