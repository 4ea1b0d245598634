import { z } from "zod";
import type { Db } from "../../db/client";
import type { ConsoleContext } from "../console-session";
import type { PermissionDecision } from "../permission-decision";
import { canonicalPermissionTarget, servedVocabulary } from "../permission-pattern";
import { authorizeAsEnforced, PERMISSION_VERBS } from "../permissions";
import type { Role, TrustedContext } from "../trusted-context";
import { type ConsoleResult, fail, ok } from "./console-result";

export const permissionTestInputSchema = z
  .object({
    agentId: z.string().trim().min(1).max(100),
    verb: z.enum(PERMISSION_VERBS),
    target: z.string().trim().min(1).max(300),
  })
  .strict();

export type PermissionTestResult = {
  decision: PermissionDecision["decision"];
  /** The target as the gateway reads it (`checkout` → `capability:checkout`): what was decided on. */
  target: string;
  message: string;
  source: PermissionDecision["source"]["kind"];
  rule: {
    id: string;
    subjectType: string;
    subjectId: string | null;
    verb: string;
    pattern: string;
    decision: string;
    position: number;
  } | null;
};

class Rollback extends Error {}

/**
 * "Would this be allowed?": runs the gateway's own evaluator (`authorizeAsEnforced`: the
 * functions every call is enforced with) for an agent of the tenant, on the target canonicalized the way the
 * gateway canonicalizes a real call's, inside a transaction that is always rolled back — the
 * evaluator consumes one-time grants, and a question must not use up an answer.
 */
export async function testPermission(
  db: Db,
  ctx: ConsoleContext,
  input: z.infer<typeof permissionTestInputSchema>,
): Promise<ConsoleResult<PermissionTestResult>> {
  const agent = await db.agent.findFirst({
    where: { id: input.agentId, tenantId: ctx.tenantId },
    include: { user: true },
  });
  if (!agent) return fail("not_found", "No such agent in this tenant.");
  const agentCtx: TrustedContext = {
    kind: "agent",
    tenantId: agent.tenantId,
    userId: agent.userId,
    email: agent.user.email,
    name: agent.user.name,
    role: agent.user.role as Role,
    agentId: agent.id,
    agentName: agent.name,
    face: "actions",
  };
  const canonical = canonicalPermissionTarget(input.target);
  if (!canonical.ok) return fail("invalid_request", `target: ${canonical.problem}`);
  // A call on a capability that does not exist is not_found whatever the rules say.
  if (canonical.capabilityId && !servedVocabulary().capabilityIds.includes(canonical.capabilityId))
    return fail("not_found", `There is no capability ${canonical.capabilityId}.`);
  let decision: PermissionDecision | undefined;
  try {
    await db.$transaction(async (tx) => {
      decision = await authorizeAsEnforced(tx as unknown as Db, agentCtx, input.verb, canonical.target);
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  if (!decision) return fail("temporarily_unavailable", "The evaluator gave no answer.");
  const ruleId = decision.source.kind === "rule" ? decision.source.ruleId : null;
  const rule = ruleId
    ? await db.permissionRule.findFirst({ where: { id: ruleId, tenantId: ctx.tenantId } })
    : null;
  return ok({
    decision: decision.decision,
    target: decision.target,
    message: decision.message,
    source: decision.source.kind,
    rule: rule
      ? {
          id: rule.id,
          subjectType: rule.subjectType,
          subjectId: rule.subjectId,
          verb: rule.verb,
          pattern: rule.pattern,
          decision: rule.decision,
          position: rule.position,
        }
      : null,
  });
}
