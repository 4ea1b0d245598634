import { z } from "zod";
import { capabilityRegistry, connectors } from "../connectors/connector-registry";
import type { AnyCapability } from "../connectors/sdk/define-capability";
import { RESERVED_SCHEMES } from "../connectors/sdk/define-connector";
import { tenantConnectors } from "../connectors/tenant-connectors";
import type { Db } from "../db/client";
import { publishAttention } from "../engine/attention-events";
import { redactText } from "../redact-secrets";
import {
  canonicalPermissionTarget,
  parsePermissionPattern,
  permissionPatternMatches,
} from "./permission-pattern";
import { type TenantConfigSnapshot, tenantConfigSnapshot } from "./tenant-config-snapshot";
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
  /** The canonical target that was decided on (what a permission request must name). */
  target: string;
  message: string;
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

// Read at each check (cached per installation), never kept: a capability installed later is known.
const capabilities = () => capabilityRegistry();

/**
 * What a call is authorized against: the canonical target (one spelling for the gateway and
 * the console's checker) and, for a capability target, the capability whose policy's roles are
 * the default. A target the grammar cannot read is kept as given: it matches only `*` rules.
 */
export function resolvePermissionTarget(target: string): { target: string; capability?: AnyCapability } {
  const canonical = canonicalPermissionTarget(target);
  if (!canonical.ok) return { target };
  return {
    target: canonical.target,
    capability: canonical.capabilityId ? capabilities().get(canonical.capabilityId) : undefined,
  };
}

/**
 * Decides whether the caller may do `verb` on `target`. Rules are read in their position order
 * and the first that matches decides; without one, the defaults: reads allowed, capability use
 * allowed when the capability's policy admits the caller's role. A granted one-time request
 * allows exactly one call. Does not write anything except consuming a one-time grant.
 *
 * The target is canonicalized here, and a capability target brings its capability's roles even
 * when the caller passes none, so every face and the console's checker get the same answer for
 * the same call.
 */
export async function authorize(
  db: Db,
  ctx: TrustedContext,
  verb: PermissionVerb,
  rawTarget: string,
  capabilityArg?: AnyCapability,
): Promise<PermissionDecision> {
  const resolved = resolvePermissionTarget(rawTarget);
  const target = resolved.target;
  const capability = capabilityArg ?? resolved.capability;
  const rule = firstRule(await rulesOf(db, ctx), ctx, verb, target);
  if (rule && rule.decision !== "ask") return ruleDecision(rule, verb, target);
  const defaultAllows =
    (!capability || capability.policy.roles.includes(ctx.role)) &&
    ((await connectorDefault(db, ctx, verb, target)) ?? true);
  if (!rule && defaultAllows)
    return { decision: "allow", source: { kind: "default" }, target, message: "allowed by default" };
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
          target,
          message: "allowed once by a granted request",
        };
    }
  }
  return {
    decision: "ask",
    source: rule ? { kind: "rule", ruleId: rule.id } : { kind: "default" },
    target,
    message: rule
      ? `${verb} on ${target} needs an admin's permission`
      : `${verb} on ${target} is not granted to role ${ctx.role}; an admin can grant it`,
  };
}

type RuleRow = TenantConfigSnapshot["rules"][number];

/** The tenant's rules in position order, from the call's tenant snapshot (read once, shared while unchanged). */
const rulesOf = async (db: Db, ctx: TrustedContext): Promise<RuleRow[]> =>
  (await tenantConfigSnapshot(db, ctx)).rules;

/** The first rule, in position order, for this caller, verb and target. */
function firstRule(rules: RuleRow[], ctx: TrustedContext, verb: PermissionVerb, target: string) {
  return rules.find(
    (r) =>
      (r.verb === "*" || r.verb === verb) &&
      (r.subjectType === "tenant" ||
        (r.subjectType === "role" && r.subjectId === ctx.role) ||
        (r.subjectType === "agent" && !!ctx.agentId && r.subjectId === ctx.agentId)) &&
      permissionPatternMatches(r.pattern, target),
  );
}

function ruleDecision(rule: RuleRow, verb: PermissionVerb, target: string): PermissionDecision {
  return {
    decision: rule.decision === "allow" ? "allow" : "deny",
    source: { kind: "rule", ruleId: rule.id },
    target,
    message:
      rule.decision === "allow"
        ? "allowed by rule"
        : `${verb} on ${target} is denied by a rule${rule.note ? ` (${rule.note})` : ""}`,
  };
}

/**
 * Decides a step that carries out a write the start was authorized for on `form` (advance,
 * confirm or recover of an imported write): the form's rules for the step's verb decide first
 * (an `ask` rule asks, and a one-time grant for it allows once); without one, a rule that no
 * longer lets the form be started (deny or ask on `start`) stops the step too, so taking a write
 * away also stops the actions already on their way. Otherwise the capability decides as for
 * any action step.
 */
export async function authorizeWriteStep(
  db: Db,
  ctx: TrustedContext,
  verb: PermissionVerb,
  form: string,
  capability?: AnyCapability,
): Promise<PermissionDecision> {
  const target = resolvePermissionTarget(form).target;
  const rules = await rulesOf(db, ctx);
  const own = firstRule(rules, ctx, verb, target);
  if (own?.decision === "ask") return authorize(db, ctx, verb, target, capability);
  if (own) return ruleDecision(own, verb, target);
  const start = firstRule(rules, ctx, "start", target);
  if (start && start.decision !== "allow")
    return {
      decision: "deny",
      source: { kind: "rule", ruleId: start.id },
      target,
      message: `${verb} on ${target} is stopped: starting it is no longer allowed (a rule${start.note ? `: ${start.note}` : ""})`,
    };
  // Its target stays the capability's: a permission request it leads to names what decided.
  return authorize(db, ctx, verb, capabilityTarget(capability?.id ?? ""), capability);
}

/**
 * The decision the gateway enforces for `verb` on `target`, for the console's checker: a write
 * step (advance, confirm) on a capability's own target (an imported write's form URI) is
 * decided as authorizeWriteStep decides it for a real action; anything else as authorize.
 */
export async function authorizeAsEnforced(
  db: Db,
  ctx: TrustedContext,
  verb: PermissionVerb,
  rawTarget: string,
): Promise<PermissionDecision> {
  if (verb === "advance" || verb === "confirm") {
    const target = resolvePermissionTarget(rawTarget).target;
    const among = await tenantConnectors(db, ctx.tenantId, ctx.tenantVersion);
    for (const c of capabilities().values()) {
      const field = c.appliesTo.field;
      if (field && c.permissionTarget?.({ [field]: target }, among) === target)
        return authorizeWriteStep(db, ctx, verb, target, c);
    }
  }
  return authorize(db, ctx, verb, rawTarget);
}

/**
 * The default of a connector that declares one (an imported system): its read roles for pages
 * and searches in its scheme, its start roles for actions authorized against one of its URIs.
 * Null when the target is in no such connector's scheme (installed connectors never declare one,
 * so their targets need no lookup).
 */
async function connectorDefault(
  db: Db,
  ctx: TrustedContext,
  verb: PermissionVerb,
  target: string,
): Promise<boolean | null> {
  const scheme = target.startsWith("search:")
    ? target.slice("search:".length)
    : /^([a-z][a-z0-9]*):\/\//.exec(target)?.[1];
  // Signpost's own schemes and the installed connectors' need no lookup.
  if (
    !scheme ||
    scheme === "*" ||
    RESERVED_SCHEMES.includes(scheme) ||
    connectors().some((c) => c.scheme === scheme && !c.defaultAccess)
  )
    return null;
  const access = (await tenantConnectors(db, ctx.tenantId, ctx.tenantVersion)).find(
    (c) => c.scheme === scheme,
  )?.defaultAccess;
  if (!access) return null;
  return (verb === "start" ? access.start : access.read).includes(ctx.role);
}

/** New requests one agent may store per hour; past it the answer stays permission_required, stored nowhere. */
/**
 * Most rules one tenant may have. Every call matches the tenant's rules in order (each match
 * bounded by |target| × |pattern|), so the count bounds a call's permission work; a few hundred
 * rules is far more than any tenant's policy needs.
 */
export const MAX_PERMISSION_RULES = 500;

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
  | { kind: "not_stored"; why: "dry_run" | "not_an_agent" | "invalid_target"; problem?: string };

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
