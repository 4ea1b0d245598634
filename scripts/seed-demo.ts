// The demo data Signpost starts with: two tenants, people in each role, one agent per person,
// the legacy API keys in the vault and the connector settings pointing at the legacy service.
import { randomBytes } from "node:crypto";
import type { Db } from "@/server/db/client";
import { mintAgentKey } from "@/server/gateway/agent-keys";
import { hashPassword } from "@/server/gateway/passwords";
import { setSecret } from "@/server/gateway/vault";

export const DEMO_TENANTS = [
  { id: "acme", name: "Acme Inc." },
  { id: "globex", name: "Globex Corporation" },
] as const;

export const DEMO_USERS = [
  { tenantId: "acme", email: "alice@acme.test", name: "Alice", role: "member" },
  { tenantId: "acme", email: "adam@acme.test", name: "Adam", role: "admin" },
  { tenantId: "acme", email: "sam@acme.test", name: "Sam", role: "support" },
  { tenantId: "globex", email: "gina@globex.test", name: "Gina", role: "member" },
] as const;

export const DEMO_CONNECTORS = ["shop", "helpdesk"] as const;

export type SeedOptions = {
  legacyUrl: string;
  legacyApiKeys: { acme: string; globex: string };
  /** One password for every demo login (SIGNPOST_DEMO_PASSWORD); default: a random one each. */
  password?: string;
};

export type SeedResult = {
  logins: { tenant: string; email: string; role: string; password: string }[];
  agents: { tenant: string; user: string; name: string; keyPrefix: string; key: string }[];
};

/** A readable random password, e.g. `alice-7f3k9q2m`. */
function demoPassword(email: string): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  const suffix = [...randomBytes(8)].map((byte) => alphabet[byte % alphabet.length]).join("");
  return `${email.split("@")[0]}-${suffix}`;
}

/** True when the database holds no tenant yet (the seed runs only then). */
export async function isEmpty(db: Db): Promise<boolean> {
  return (await db.tenant.count()) === 0;
}

/** Seeds the demo into an empty database; returns null (and changes nothing) otherwise. */
export async function seedDemo(db: Db, options: SeedOptions): Promise<SeedResult | null> {
  if (!(await isEmpty(db))) return null;
  // Hash and mint first (scrypt is slow on purpose), then write everything in one transaction
  // so a crash cannot leave a half-seeded database that later starts would never finish.
  const people = await Promise.all(
    DEMO_USERS.map(async (person) => {
      const password = options.password ?? demoPassword(person.email);
      return { person, password, passwordHash: await hashPassword(password), minted: mintAgentKey() };
    }),
  );
  const result: SeedResult = { logins: [], agents: [] };
  const seeded = await db.$transaction(
    async (tx) => {
      if ((await tx.tenant.count()) > 0) return false; // another process seeded first
      for (const tenant of DEMO_TENANTS) await tx.tenant.create({ data: tenant });
      for (const { person, password, passwordHash, minted } of people) {
        const user = await tx.user.create({ data: { ...person, passwordHash } });
        const name = `${person.name}'s assistant`;
        await tx.agent.create({
          data: {
            tenantId: person.tenantId,
            name,
            userId: user.id,
            keyHash: minted.keyHash,
            keyPrefix: minted.keyPrefix,
          },
        });
        result.logins.push({ tenant: person.tenantId, email: person.email, role: person.role, password });
        result.agents.push({
          tenant: person.tenantId,
          user: person.email,
          name,
          keyPrefix: minted.keyPrefix,
          key: minted.key,
        });
      }
      for (const tenant of DEMO_TENANTS) {
        for (const connector of DEMO_CONNECTORS) {
          const value = options.legacyApiKeys[tenant.id];
          await setSecret(tx, { tenantId: tenant.id, connector, name: "api_key", value });
          await tx.connectorConfig.create({
            data: { tenantId: tenant.id, connector, settings: { baseUrl: options.legacyUrl } },
          });
        }
      }
      return true;
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
  return seeded ? result : null;
}

/**
 * Points the demo connectors at a new legacy URL (e.g. LEGACY_PORT changed between starts),
 * but only those still set to the previous one: an admin's own setting is left alone.
 */
export async function repointConnectors(db: Db, fromUrl: string, toUrl: string): Promise<number> {
  if (fromUrl === toUrl) return 0;
  const configs = await db.connectorConfig.findMany();
  let changed = 0;
  for (const config of configs) {
    const settings = (config.settings ?? {}) as Record<string, unknown>;
    if (settings.baseUrl !== fromUrl) continue;
    await db.connectorConfig.update({
      where: { id: config.id },
      data: { settings: { ...settings, baseUrl: toUrl } },
    });
    changed++;
  }
  return changed;
}
