import { z } from "zod";
import type { Db } from "../db/client";
import type { AnyCapability } from "../engine/define-capability";
import type { TrustedContext } from "./trusted-context";

export const PERMISSION_VERBS = [
  "search",
  "navigate",
  "submit",
  "start",
  "advance",
  "confirm",
  "script",
] as const;
export type PermissionVerb = (typeof PERMISSION_VERBS)[number];

export interface PermissionDecision {
  decision: "allow" | "deny" | "ask";
  /** What decided: a rule id, a one-time grant, or the defaults. */
  source: { kind: "rule"; ruleId: string } | { kind: "grant"; requestId: string } | { kind: "default" };
  message: string;
}

/** Glob over URIs and capability targets: `*` is one path segment, `**` anything. */
export function patternMatches(pattern: string, target: string): boolean {
  if (pattern === "*" || pattern === "**") return true;
  const re = new RegExp(
    `^${pattern
      .split("**")
      .map((part) =>
        part
          .split("*")
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
          .join("[^/]*"),
      )
      .join(".*")}$`,
  );
  return re.test(target);
}

/** The target string a capability operation is authorized against. */
export function capabilityTarget(capabilityId: string): string {
  return `capability:${capabilityId}`;
}

/** How the decision is written in audit rows: `allow:rule_1`, `allow:grant:req_1`, `ask:default`. */
export function describeDecision(d: PermissionDecision): string {
  return d.source.kind === "rule"
    ? `${d.decision}:${d.source.ruleId}`
    : d.source.kind === "grant"
      ? `allow:grant:${d.source.requestId}`
      : `${d.decision}:default`;
}

/**
 * Decides whether the caller may do `verb` on `target`. Rules are read in their position order
 * and the first that matches decides; without one, the defaults: reads allowed, capability use
 * allowed when the capability's policy admits the caller's role. A granted one-time request
 * allows exactly one call. Does not write anything except consuming a one-time grant.
 */
export async function authorize(
  db: Db,
  ctx: TrustedContext,
  verb: PermissionVerb,
  target: string,
  capability?: AnyCapability,
): Promise<PermissionDecision> {
  const rules = await db.permissionRule.findMany({
    where: { tenantId: ctx.tenantId },
    orderBy: [{ position: "asc" }, { createdAt: "asc" }],
  });
  const rule = rules.find(
    (r) =>
      (r.verb === "*" || r.verb === verb) &&
      (r.subjectType === "tenant" ||
        (r.subjectType === "role" && r.subjectId === ctx.role) ||
        (r.subjectType === "agent" && !!ctx.agentId && r.subjectId === ctx.agentId)) &&
      patternMatches(r.pattern, target),
  );
  if (rule && rule.decision !== "ask") {
    return {
      decision: rule.decision === "allow" ? "allow" : "deny",
      source: { kind: "rule", ruleId: rule.id },
      message:
        rule.decision === "allow"
          ? "allowed by rule"
          : `${verb} on ${target} is denied by a rule${rule.note ? ` (${rule.note})` : ""}`,
    };
  }
  const defaultAllows = !capability || capability.policy.roles.includes(ctx.role);
  if (!rule && defaultAllows)
    return { decision: "allow", source: { kind: "default" }, message: "allowed by default" };
  // `ask`, or no grant for a role the capability does not admit: a one-time grant may allow it.
  if (ctx.agentId) {
    const grant = await db.permissionRequest.findFirst({
      where: {
        tenantId: ctx.tenantId,
        agentId: ctx.agentId,
        verb,
        target,
        status: "granted",
        grantMode: "once",
      },
    });
    if (grant) {
      const used = await db.permissionRequest.updateMany({
        where: { id: grant.id, status: "granted" },
        data: { status: "used" },
      });
      if (used.count === 1)
        return {
          decision: "allow",
          source: { kind: "grant", requestId: grant.id },
          message: "allowed once by a granted request",
        };
    }
  }
  return {
    decision: "ask",
    source: rule ? { kind: "rule", ruleId: rule.id } : { kind: "default" },
    message: rule
      ? `${verb} on ${target} needs an admin's permission`
      : `${verb} on ${target} is not granted to role ${ctx.role}; an admin can grant it`,
  };
}

/** Stores (or reuses) the agent's pending request for an admin. Agents request; only admins grant. */
export async function storePermissionRequest(
  db: Db,
  ctx: TrustedContext,
  input: { verb: string; target: string; reason?: string },
) {
  if (!ctx.agentId) return null;
  const existing = await db.permissionRequest.findFirst({
    where: {
      tenantId: ctx.tenantId,
      agentId: ctx.agentId,
      verb: input.verb,
      target: input.target,
      status: "pending",
    },
  });
  if (existing) return existing;
  return db.permissionRequest.create({
    data: {
      tenantId: ctx.tenantId,
      agentId: ctx.agentId,
      verb: input.verb,
      target: input.target,
      reason: input.reason ?? null,
      status: "pending",
    },
  });
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
        pattern: request.target,
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
