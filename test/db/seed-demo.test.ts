import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { repointConnectors, seedDemo } from "@/scripts/seed-demo";
import { hashAgentKey } from "@/server/gateway/agent-keys";
import { verifyPassword } from "@/server/gateway/passwords";
import { readSecret } from "@/server/gateway/vault";
import { createTestDatabase, describeEachProvider, type TestDatabase } from "@/test/helpers/database";

// Protects: the first start seeds a usable demo (logins that work, agent keys that identify,
// legacy keys in the vault, connectors pointing at the legacy service), and only once.

process.env.SIGNPOST_MASTER_KEY ??= randomBytes(32).toString("hex");
const legacyApiKeys = { acme: "lk_acme_test_key_1", globex: "lk_globex_test_key_1" };

describeEachProvider("demo seed on %s", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("seeds tenants, people, agents, vault entries and connector settings", async () => {
    const result = await seedDemo(t.db, { legacyUrl: "http://127.0.0.1:4999", legacyApiKeys });
    expect(result).not.toBeNull();
    expect(result?.logins.map((l) => `${l.email}:${l.role}`)).toEqual([
      "alice@acme.test:member",
      "adam@acme.test:admin",
      "sam@acme.test:support",
      "gina@globex.test:member",
    ]);
    for (const login of result?.logins ?? []) {
      const user = await t.db.user.findUniqueOrThrow({ where: { email: login.email } });
      expect(user.tenantId).toBe(login.tenant);
      expect(await verifyPassword(login.password, user.passwordHash)).toBe(true);
    }
    expect(result?.agents).toHaveLength(4);
    for (const agent of result?.agents ?? []) {
      const row = await t.db.agent.findUniqueOrThrow({
        where: { keyHash: hashAgentKey(agent.key) },
        include: { user: true },
      });
      expect(row.user.email).toBe(agent.user);
      expect(row.tenantId).toBe(agent.tenant);
      expect(row.keyPrefix).toBe(agent.keyPrefix);
    }
    for (const tenantId of ["acme", "globex"] as const) {
      for (const connector of ["shop", "helpdesk"]) {
        expect(await readSecret(t.db, { tenantId, connector, name: "api_key" })).toBe(
          legacyApiKeys[tenantId],
        );
        const config = await t.db.connectorConfig.findUniqueOrThrow({
          where: { tenantId_connector: { tenantId, connector } },
        });
        expect(config.settings).toEqual({ baseUrl: "http://127.0.0.1:4999" });
      }
    }
  });

  it("does nothing on a database that already has data", async () => {
    expect(await seedDemo(t.db, { legacyUrl: "http://x", legacyApiKeys })).toBeNull();
    expect(await t.db.user.count()).toBe(4);
  });

  it("repoints only connectors still on the previous legacy URL", async () => {
    const custom = await t.db.connectorConfig.findFirstOrThrow({
      where: { tenantId: "globex", connector: "shop" },
    });
    await t.db.connectorConfig.update({
      where: { id: custom.id },
      data: { settings: { baseUrl: "https://erp.globex" } },
    });
    expect(await repointConnectors(t.db, "http://127.0.0.1:4999", "http://127.0.0.1:5000")).toBe(3);
    const after = await t.db.connectorConfig.findUniqueOrThrow({ where: { id: custom.id } });
    expect(after.settings).toEqual({ baseUrl: "https://erp.globex" });
  });
});
