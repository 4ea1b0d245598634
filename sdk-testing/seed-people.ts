import type { Db } from "../server/db/client";
import { mintAgentKey } from "../server/gateway/agent-keys";
import { identifyAgent, type Role, type TrustedContext } from "../server/gateway/trusted-context";

/** One person of a test world: who they are, and the agent key that acts for them. */
export interface TestUser {
  key: string;
  tenant: string;
  email: string;
  name: string;
  role: Role;
}

/** What seedPeople made, by each user's key: the agent's key, and the two ways of calling. */
export interface SeededPeople<K extends string> {
  keys: Record<K, string>;
  /** As that person's agent (identified from its key, as the MCP endpoint does). */
  agent: Record<K, TrustedContext>;
  /** As the person themself, signed in to the console. */
  person: Record<K, TrustedContext>;
}

/**
 * Tenants, users and one agent key per user, as the seed makes them; the agent contexts come
 * from identifying each key, so a test calls exactly as a connected agent would.
 */
export async function seedPeople<const U extends readonly TestUser[]>(
  db: Db,
  tenants: ReadonlyArray<{ id: string; name: string }>,
  users: U,
): Promise<SeededPeople<U[number]["key"]>> {
  type K = U[number]["key"];
  for (const tenant of tenants) await db.tenant.create({ data: tenant });
  const seeded = { keys: {}, agent: {}, person: {} } as SeededPeople<K>;
  for (const u of users as readonly TestUser[]) {
    const key = u.key as K;
    const user = await db.user.create({
      data: { tenantId: u.tenant, email: u.email, name: u.name, role: u.role, passwordHash: "x" },
    });
    const minted = mintAgentKey();
    await db.agent.create({
      data: {
        tenantId: u.tenant,
        name: `${u.name}'s agent`,
        userId: user.id,
        keyHash: minted.keyHash,
        keyPrefix: minted.keyPrefix,
      },
    });
    seeded.keys[key] = minted.key;
    seeded.person[key] = {
      kind: "person",
      tenantId: u.tenant,
      userId: user.id,
      email: u.email,
      name: u.name,
      role: u.role,
      face: "console",
    };
    const ctx = await identifyAgent(db, `Bearer ${minted.key}`);
    if (!ctx) throw new Error(`agent of ${u.key} not identified`);
    seeded.agent[key] = ctx;
  }
  return seeded;
}
