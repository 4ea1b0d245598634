import { capabilityRegistry, connectors } from "../connectors/connector-registry";
import type { AnyCapability } from "../connectors/sdk/define-capability";
import { RESERVED_SCHEMES } from "../connectors/sdk/define-connector";
import { tenantConnectors } from "../connectors/tenant-connectors";
import type { Db } from "../db/client";
import type { PermissionDecision } from "./permission-decision";
import { canonicalPermissionTarget, permissionPatternMatches } from "./permission-pattern";
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
 * the same call. `preview` answers what the call would get without consuming a grant (words that
 * say up front whether a step will wait for a person).
 */
export async function authorize(
  db: Db,
  ctx: TrustedContext,
  verb: PermissionVerb,
  rawTarget: string,
  capabilityArg?: AnyCapability,
  options: { preview?: boolean } = {},
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
      const used = options.preview
        ? { count: 1 }
        : await db.permissionRequest.updateMany({
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

/**
 * Most rules one tenant may have. Every call matches the tenant's rules in order (each match
 * bounded by |target| × |pattern|), so the count bounds a call's permission work; a few hundred
 * rules is far more than any tenant's policy needs.
 */
export const MAX_PERMISSION_RULES = 500;
