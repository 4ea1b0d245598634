import { z } from "zod";
import { tenantConnectors } from "../../connectors/tenant-connectors";
import type { Db } from "../../db/client";
import type { ConsoleContext } from "../console-session";
import { parsePermissionPattern, servedVocabulary } from "../permission-pattern";
import { MAX_PERMISSION_RULES } from "../permissions";
import { type ConsoleResult, fail, ok } from "./console-result";
import { recordConsoleAudit } from "./record-console-audit";

export const permissionVerbs = [
  "search",
  "navigate",
  "submit",
  "start",
  "advance",
  "confirm",
  "script",
  "*",
] as const;

export const permissionRuleInputSchema = z
  .object({
    subjectType: z.enum(["agent", "role", "tenant"]),
    subjectId: z.string().trim().max(100).nullish(),
    verb: z.enum(permissionVerbs),
    // The one grammar (permission-pattern.ts): refused with the problem named, and stored in its
    // canonical spelling (a bare capability id becomes capability:<id>). Whether it names what
    // the tenant is served (its imported systems too) is checked on save, with its vocabulary.
    pattern: z
      .string()
      .max(1000)
      .transform((raw, c) => {
        const parsed = parsePermissionPattern(raw, { check: "syntax" });
        if (parsed.ok) return parsed.pattern;
        c.addIssue({ code: "custom", message: parsed.problem });
        return z.NEVER;
      }),
    decision: z.enum(["allow", "deny", "ask"]),
    note: z.string().trim().max(300).nullish(),
  })
  .strict()
  .superRefine((v, c) => {
    if (v.subjectType !== "tenant" && !v.subjectId)
      c.addIssue({ code: "custom", path: ["subjectId"], message: "required for agent and role subjects" });
    if (v.subjectType === "role" && v.subjectId && !["admin", "support", "member"].includes(v.subjectId))
      c.addIssue({ code: "custom", path: ["subjectId"], message: "role must be admin, support or member" });
  });
export type PermissionRuleInput = z.infer<typeof permissionRuleInputSchema>;

export type PermissionRuleView = {
  id: string;
  subjectType: string;
  subjectId: string | null;
  verb: string;
  pattern: string;
  decision: string;
  position: number;
  note: string | null;
  updatedAt: string;
  /** Who made the rule, and who last changed it, named. */
  createdBy: string | null;
  updatedBy: string | null;
  /** Why the stored pattern matches nothing (a row saved before patterns were validated), or null. */
  problem: string | null;
};

export async function listPermissionRules(db: Db, ctx: ConsoleContext): Promise<PermissionRuleView[]> {
  const rows = await db.permissionRule.findMany({
    where: { tenantId: ctx.tenantId },
    orderBy: [{ position: "asc" }, { createdAt: "asc" }],
  });
  const people = await db.user.findMany({
    where: {
      tenantId: ctx.tenantId,
      id: { in: rows.flatMap((r) => [r.createdById, r.updatedById].filter((v): v is string => Boolean(v))) },
    },
    select: { id: true, name: true },
  });
  const nameOf = (id: string | null) => (id ? (people.find((p) => p.id === id)?.name ?? null) : null);
  return rows.map((r) => ({
    id: r.id,
    subjectType: r.subjectType,
    subjectId: r.subjectId,
    verb: r.verb,
    pattern: r.pattern,
    decision: r.decision,
    position: r.position,
    note: r.note,
    updatedAt: r.updatedAt.toISOString(),
    createdBy: nameOf(r.createdById),
    updatedBy: nameOf(r.updatedById),
    problem: patternProblem(r.pattern),
  }));
}

function patternProblem(pattern: string): string | null {
  const parsed = parsePermissionPattern(pattern, { check: "syntax" });
  return parsed.ok ? null : `this rule matches nothing: ${parsed.problem}`;
}

/**
 * Whatever the caller, a rule is stored only with a pattern the grammar accepts, in its
 * canonical spelling: the route's body schema checks it, and so does this, for other callers.
 */
async function checkedPattern(
  db: Db,
  ctx: ConsoleContext,
  input: PermissionRuleInput,
): Promise<ConsoleResult<string>> {
  const vocabulary = servedVocabulary(await tenantConnectors(db, ctx.tenantId));
  const parsed = parsePermissionPattern(input.pattern, { vocabulary });
  return parsed.ok
    ? ok(parsed.pattern)
    : fail("invalid_request", `pattern: ${parsed.problem}`, [{ path: "pattern", message: parsed.problem }]);
}

async function checkSubject(db: Db, ctx: ConsoleContext, input: PermissionRuleInput): Promise<string | null> {
  if (input.subjectType !== "agent") return null;
  const agent = await db.agent.findFirst({ where: { id: input.subjectId ?? "", tenantId: ctx.tenantId } });
  return agent ? null : "No such agent in this tenant.";
}

/** Adds a rule at the end (or the top, for grants that must win over an earlier deny). */
export async function createPermissionRule(
  db: Db,
  ctx: ConsoleContext,
  input: PermissionRuleInput,
  opts: { atTop?: boolean; operation?: string } = {},
): Promise<ConsoleResult<{ id: string }>> {
  const startedAt = Date.now();
  const pattern = await checkedPattern(db, ctx, input);
  if (!pattern.ok) return pattern;
  const problem = await checkSubject(db, ctx, input);
  if (problem) return fail("not_found", problem);
  if ((await db.permissionRule.count({ where: { tenantId: ctx.tenantId } })) >= MAX_PERMISSION_RULES)
    return fail(
      "conflict",
      `This tenant has ${MAX_PERMISSION_RULES} rules, the most it may have: merge or delete rules before adding one.`,
    );
  const edge = await db.permissionRule.aggregate({
    where: { tenantId: ctx.tenantId },
    _max: { position: true },
    _min: { position: true },
  });
  const position = opts.atTop ? (edge._min.position ?? 1) - 1 : (edge._max.position ?? -1) + 1;
  const rule = await db.permissionRule.create({
    data: {
      tenantId: ctx.tenantId,
      subjectType: input.subjectType,
      subjectId: input.subjectType === "tenant" ? null : (input.subjectId ?? null),
      verb: input.verb,
      pattern: pattern.value,
      decision: input.decision,
      note: input.note ?? null,
      position,
      createdById: ctx.userId,
    },
  });
  await recordConsoleAudit(db, ctx, {
    operation: opts.operation ?? "permission.rule_created",
    target: rule.id,
    arguments: { ...input, pattern: pattern.value, position },
    decision: input.decision,
    outcome: "applied",
    startedAt,
  });
  return ok({ id: rule.id });
}

export async function updatePermissionRule(
  db: Db,
  ctx: ConsoleContext,
  id: string,
  input: PermissionRuleInput,
): Promise<ConsoleResult<{ id: string }>> {
  const startedAt = Date.now();
  const pattern = await checkedPattern(db, ctx, input);
  if (!pattern.ok) return pattern;
  const problem = await checkSubject(db, ctx, input);
  if (problem) return fail("not_found", problem);
  const updated = await db.permissionRule.updateMany({
    where: { id, tenantId: ctx.tenantId },
    data: {
      subjectType: input.subjectType,
      subjectId: input.subjectType === "tenant" ? null : (input.subjectId ?? null),
      verb: input.verb,
      pattern: pattern.value,
      decision: input.decision,
      note: input.note ?? null,
      updatedById: ctx.userId,
    },
  });
  if (updated.count === 0) return fail("not_found", "No such rule.");
  await recordConsoleAudit(db, ctx, {
    operation: "permission.rule_updated",
    target: id,
    arguments: { ...input, pattern: pattern.value },
    decision: input.decision,
    outcome: "applied",
    startedAt,
  });
  return ok({ id });
}

export async function deletePermissionRule(
  db: Db,
  ctx: ConsoleContext,
  id: string,
): Promise<ConsoleResult<{ id: string }>> {
  const startedAt = Date.now();
  const rule = await db.permissionRule.findFirst({ where: { id, tenantId: ctx.tenantId } });
  if (!rule) return fail("not_found", "No such rule.");
  await db.permissionRule.deleteMany({ where: { id, tenantId: ctx.tenantId } });
  await recordConsoleAudit(db, ctx, {
    operation: "permission.rule_deleted",
    target: id,
    arguments: {
      subjectType: rule.subjectType,
      subjectId: rule.subjectId,
      verb: rule.verb,
      pattern: rule.pattern,
      decision: rule.decision,
    },
    outcome: "applied",
    startedAt,
  });
  return ok({ id });
}

export const reorderRulesInputSchema = z
  .object({ ids: z.array(z.string().min(1).max(100)).max(1000) })
  .strict();

/** Sets the evaluation order: `ids` must be exactly the tenant's rules, first match first. */
export async function reorderPermissionRules(
  db: Db,
  ctx: ConsoleContext,
  ids: string[],
): Promise<ConsoleResult<{ ids: string[] }>> {
  const startedAt = Date.now();
  const rules = await db.permissionRule.findMany({ where: { tenantId: ctx.tenantId }, select: { id: true } });
  const known = new Set(rules.map((r) => r.id));
  if (ids.length !== known.size || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) {
    return fail("conflict", "The rules changed since the list was loaded: reload and try again.");
  }
  await db.$transaction(
    ids.map((id, position) =>
      db.permissionRule.updateMany({ where: { id, tenantId: ctx.tenantId }, data: { position } }),
    ),
  );
  await recordConsoleAudit(db, ctx, {
    operation: "permission.rules_reordered",
    arguments: { ids },
    outcome: "applied",
    startedAt,
  });
  return ok({ ids });
}

export type PermissionRequestView = {
  id: string;
  agentId: string;
  agentName: string | null;
  verb: string;
  target: string;
  reason: string | null;
  status: string;
  grantMode: string | null;
  createdAt: string;
  decidedAt: string | null;
  /** The admin who granted or denied it, named. */
  decidedBy: string | null;
};

export async function listPermissionRequests(
  db: Db,
  ctx: ConsoleContext,
  status: "pending" | "all" = "pending",
): Promise<PermissionRequestView[]> {
  const rows = await db.permissionRequest.findMany({
    where: { tenantId: ctx.tenantId, ...(status === "pending" ? { status: "pending" } : {}) },
    orderBy: { createdAt: "desc" },
    take: 200,
  });
  const agents = await db.agent.findMany({
    where: { tenantId: ctx.tenantId, id: { in: rows.map((r) => r.agentId) } },
    select: { id: true, name: true },
  });
  const names = new Map(agents.map((a) => [a.id, a.name]));
  const deciders = await db.user.findMany({
    where: {
      tenantId: ctx.tenantId,
      id: { in: rows.flatMap((r) => (r.decidedById ? [r.decidedById] : [])) },
    },
    select: { id: true, name: true },
  });
  const decider = new Map(deciders.map((u) => [u.id, u.name]));
  return rows.map((r) => ({
    id: r.id,
    agentId: r.agentId,
    agentName: names.get(r.agentId) ?? null,
    verb: r.verb,
    target: r.target,
    reason: r.reason,
    status: r.status,
    grantMode: r.grantMode,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    decidedBy: r.decidedById ? (decider.get(r.decidedById) ?? null) : null,
  }));
}
