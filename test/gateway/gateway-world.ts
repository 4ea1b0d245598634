import { randomBytes } from "node:crypto";
import { seedPeople } from "@/sdk-testing/seed-people";
import type { Db } from "@/server/db/client";
import type { DbProvider } from "@/server/db/database-url";
import { decideApproval } from "@/server/gateway/approvals";
import { createGateway, type Gateway } from "@/server/gateway/create-gateway";
import type { TrustedContext } from "@/server/gateway/trusted-context";
import { setSecret } from "@/server/gateway/vault";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { type RunningLegacy, startLegacy } from "../helpers/legacy-server";

// The vault needs a master key; tests use a throwaway one.
process.env.SIGNPOST_MASTER_KEY ??= randomBytes(32).toString("hex");

export interface World {
  provider: DbProvider;
  legacy: RunningLegacy;
  database: TestDatabase;
  db: Db;
  gw: Gateway;
  keys: Record<"alice" | "adam" | "sam" | "gina", string>;
  agent: Record<"alice" | "adam" | "sam" | "gina", TrustedContext>;
  person: Record<"alice" | "adam" | "sam" | "gina", TrustedContext>;
  close(): Promise<void>;
}

const TENANTS = [
  { id: "acme", name: "Acme" },
  { id: "globex", name: "Globex" },
];
const USERS = [
  { key: "alice", tenant: "acme", email: "alice@acme.test", name: "Alice", role: "member" },
  { key: "adam", tenant: "acme", email: "adam@acme.test", name: "Adam", role: "admin" },
  { key: "sam", tenant: "acme", email: "sam@acme.test", name: "Sam", role: "support" },
  { key: "gina", tenant: "globex", email: "gina@globex.test", name: "Gina", role: "member" },
] as const;

/**
 * A real world for gateway tests (the connector kit's world, sdk-testing/, for the demo's two): the real legacy service over HTTP, a fresh migrated database,
 * tenants, users and agent keys as the seed makes them, the legacy keys in the vault.
 */
export async function createWorld(provider: DbProvider, legacyArg?: RunningLegacy): Promise<World> {
  const legacy = legacyArg ?? (await startLegacy());
  const database = await createTestDatabase(provider);
  const db = database.db;
  const { keys, agent, person } = await seedPeople(db, TENANTS, USERS);
  for (const tenant of ["acme", "globex"] as const)
    for (const connector of ["shop", "helpdesk"]) {
      await setSecret(db, { tenantId: tenant, connector, name: "api_key", value: legacy.apiKeys[tenant] });
      await db.connectorConfig.create({
        data: { tenantId: tenant, connector, settings: { baseUrl: legacy.url } },
      });
    }
  const gw = createGateway({ db });
  return {
    provider,
    legacy,
    database,
    db,
    gw,
    keys,
    agent,
    person,
    async close() {
      await database.drop();
      if (!legacyArg) await legacy.stop();
    },
  };
}

let counter = 0;
/** A fresh idempotency key per call site. */
export const idem = (label = "k") =>
  `${label}-${Date.now().toString(36)}-${(counter++).toString(36)}-${randomBytes(3).toString("hex")}`;

/**
 * Starts checkout the way the article's user asks: "two of these, ship to the office, pay from my
 * balance", with the shipping method they chose (a paid choice is never defaulted).
 */
export async function checkoutToConfirmation(
  w: World,
  ctx = w.agent.alice,
  patch: Record<string, unknown> = {},
) {
  return w.gw.startAction(ctx, {
    capability: "checkout",
    patch: {
      items: [{ product_id: "prod_mug", quantity: 2 }],
      address_id: "Office",
      shipping_method: "standard",
      payment_type: "balance",
      ...patch,
    },
  });
}

/** A person (Alice by default) approves the action's current version, as the console does. */
export async function approve(w: World, actionId: string, who: TrustedContext = w.person.alice) {
  const row = await w.db.action.findUnique({ where: { id: actionId }, select: { version: true } });
  return w.gw.decideApproval(who, {
    action_id: actionId,
    version: row?.version ?? 1,
    decision: "approve",
  });
}

/**
 * A person's approval recorded whose run has not happened: the state a server stop between the
 * decision's commit and the confirm it runs leaves behind. The decision is the real one
 * (server/gateway/approvals.ts); the confirm is left to the agent's confirm_action, whose own
 * mechanics (ledger, faults, retries, recovery) the tests that use this exercise. `approve` is
 * the console's whole click: decision and run.
 */
export async function grant(
  w: Pick<World, "db" | "gw" | "person">,
  actionId: string,
  who: TrustedContext = w.person.alice,
) {
  const row = await w.db.action.findUnique({ where: { id: actionId }, select: { version: true } });
  return decideApproval(w.db, who, w.gw.capabilities, {
    action_id: actionId,
    version: row?.version ?? 1,
    decision: "approve",
  });
}
