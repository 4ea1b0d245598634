import type { Db } from "@/server/db/client";
import type { ConsoleContext } from "@/server/gateway/console-session";

/** Two tenants with one person per role, an agent, and one action awaiting approval per member. */
export async function seedConsoleFixtures(db: Db) {
  for (const [id, name] of [
    ["acme", "Acme"],
    ["globex", "Globex"],
  ] as const) {
    await db.tenant.create({ data: { id, name } });
  }
  const mk = (tenantId: string, email: string, role: string) =>
    db.user.create({
      data: { tenantId, email, name: email.split("@")[0] ?? email, role, passwordHash: "unused" },
    });
  const alice = await mk("acme", "alice@acme.test", "member");
  const adam = await mk("acme", "adam@acme.test", "admin");
  const sam = await mk("acme", "sam@acme.test", "support");
  const bob = await mk("acme", "bob@acme.test", "member");
  const gina = await mk("globex", "gina@globex.test", "admin");
  const agent = await db.agent.create({
    data: { tenantId: "acme", name: "alice-bot", userId: alice.id, keyHash: "h1", keyPrefix: "sp_aaaaaaaa" },
  });
  const globexAgent = await db.agent.create({
    data: { tenantId: "globex", name: "gina-bot", userId: gina.id, keyHash: "h2", keyPrefix: "sp_bbbbbbbb" },
  });
  async function pendingAction(tenantId: string, userId: string, amount: number) {
    const action = await db.action.create({
      data: {
        tenantId,
        userId,
        agentId: null,
        capability: "checkout",
        node: "CONFIRM",
        version: 3,
        status: "awaiting_approval",
        state: {},
      },
    });
    const approval = await db.approval.create({
      data: {
        actionId: action.id,
        tenantId,
        userId,
        version: 3,
        summaryDigest: "a".repeat(64),
        summary: { amount, address: "Office", payment_type: "balance" },
        status: "pending",
      },
    });
    return { action, approval };
  }
  const aliceAction = await pendingAction("acme", alice.id, 3980);
  const bobAction = await pendingAction("acme", bob.id, 1500);
  const ginaAction = await pendingAction("globex", gina.id, 999);
  return { alice, adam, sam, bob, gina, agent, globexAgent, aliceAction, bobAction, ginaAction };
}

export function contextOf(user: {
  id: string;
  tenantId: string;
  email: string;
  name: string;
  role: string;
}): ConsoleContext {
  return {
    sessionId: "test",
    tenantId: user.tenantId,
    tenantName: user.tenantId,
    userId: user.id,
    email: user.email,
    name: user.name,
    role: user.role as ConsoleContext["role"],
  };
}
