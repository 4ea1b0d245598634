import type { Db } from "@/server/db/client";

/**
 * Runs `body` while one route rule, ahead of every other, decides `verb` on `pattern` for one agent
 * of tenant acme, as an admin's rule would; the rule is removed afterwards whatever `body` does.
 */
export async function withAgentRule(
  db: Db,
  rule: { agentId: string | null; verb: string; pattern: string; decision: "deny" | "ask" | "allow" },
  body: () => Promise<void>,
): Promise<void> {
  const created = await db.permissionRule.create({
    data: {
      tenantId: "acme",
      subjectType: "agent",
      subjectId: rule.agentId,
      verb: rule.verb,
      pattern: rule.pattern,
      decision: rule.decision,
      position: -50,
    },
  });
  try {
    await body();
  } finally {
    await db.permissionRule.delete({ where: { id: created.id } });
  }
}
