import { mintAgentKey } from "@/server/gateway/agent-keys";
import type { ConsoleContext } from "@/server/gateway/console-session";
import { identifyAgent, type TrustedContext } from "@/server/gateway/trusted-context";
import type { World } from "../gateway/gateway-world";

export type Role = "admin" | "support" | "member";
export type Tenant = "acme" | "globex";

export type Someone = {
  userId: string;
  /** Their agent's key (for a real MCP client). */
  key: string;
  console: ConsoleContext;
  person: TrustedContext;
  agent: TrustedContext;
};

/**
 * One person of every role in each tenant, each with an agent key: tenancy tests compare the
 * same role across tenants, so a refusal can only come from the tenant, never from the role.
 * Acme's are the world's own (alice, adam, sam); Globex's member is gina, its admin and support
 * are added here.
 */
export async function peopleOfEveryRole(w: World): Promise<Record<Tenant, Record<Role, Someone>>> {
  const extra = [
    { email: "gwen@globex.test", name: "Gwen", role: "admin" as const },
    { email: "gus@globex.test", name: "Gus", role: "support" as const },
  ];
  const globexKeys: Record<string, string> = { member: w.keys.gina };
  for (const u of extra) {
    const user = await w.db.user.create({
      data: { tenantId: "globex", email: u.email, name: u.name, role: u.role, passwordHash: "x" },
    });
    const minted = mintAgentKey();
    await w.db.agent.create({
      data: {
        tenantId: "globex",
        name: `${u.name}'s agent`,
        userId: user.id,
        keyHash: minted.keyHash,
        keyPrefix: minted.keyPrefix,
      },
    });
    globexKeys[u.role] = minted.key;
  }
  const keyOf: Record<Tenant, Record<Role, string>> = {
    acme: { member: w.keys.alice, admin: w.keys.adam, support: w.keys.sam },
    globex: globexKeys as Record<Role, string>,
  };
  const out = {} as Record<Tenant, Record<Role, Someone>>;
  for (const tenant of ["acme", "globex"] as const) {
    out[tenant] = {} as Record<Role, Someone>;
    for (const role of ["admin", "support", "member"] as const) {
      const agent = await identifyAgent(w.db, `Bearer ${keyOf[tenant][role]}`);
      if (agent?.kind !== "agent") throw new Error(`no agent for ${tenant} ${role}`);
      const user = await w.db.user.findUniqueOrThrow({ where: { id: agent.userId } });
      const console: ConsoleContext = {
        sessionId: `test-${user.id}`,
        tenantId: tenant,
        tenantName: tenant,
        userId: user.id,
        email: user.email,
        name: user.name,
        role,
      };
      out[tenant][role] = {
        userId: user.id,
        key: keyOf[tenant][role],
        console,
        person: {
          kind: "person",
          tenantId: tenant,
          userId: user.id,
          email: user.email,
          name: user.name,
          role,
          face: "console",
        },
        agent,
      };
    }
  }
  return out;
}
