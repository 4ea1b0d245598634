import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createSignpostBrowseBackend } from "../mcp/signpost-browse-backend";
import { navigate } from "../server/browse/navigate";
import type { BrowsePage } from "../server/browse/render-page";
import { search } from "../server/browse/search";
import { submit } from "../server/browse/submit";
import { registerConnector, resetInstalledConnectors } from "../server/connectors/connector-registry";
import { installConnectorFolder } from "../server/connectors/install-connectors";
import type { AnyConnector } from "../server/connectors/sdk/define-connector";
import type { Db } from "../server/db/client";
import type { ApprovalOutcome } from "../server/gateway/approvals";
import { createGateway, type Gateway, type GatewayOutcome } from "../server/gateway/create-gateway";
import type { TrustedContext } from "../server/gateway/trusted-context";
import { setSecret } from "../server/gateway/vault";
import { allowEgressTo } from "./allow-egress";
import { seedPeople } from "./seed-people";
import { createTestDatabase } from "./test-database";

/** What an agent does in a test: the seven action primitives and browse, through the gateway. */
export interface TestAgent {
  ctx: TrustedContext;
  /** start_action: the capability, the fields the agent knows, the entity it applies to. */
  start(capability: string, patch?: Record<string, unknown>, entityId?: string): Promise<ActionOutcome>;
  advance(actionId: string, patch: Record<string, unknown>): Promise<ActionOutcome>;
  /** confirm_action with a fresh idempotency key (or the one given, to resend). */
  confirm(actionId: string, idempotencyKey?: string): Promise<ActionOutcome>;
  verify(actionId: string): Promise<ActionOutcome>;
  navigate(uri: string): Promise<BrowsePage>;
  submit(uri: string, fields: Record<string, unknown>): Promise<BrowsePage>;
  search(query: string): Promise<BrowsePage>;
}

/** A person signed in to the console, deciding on what their agent prepared. */
export interface TestPerson {
  ctx: TrustedContext;
  approve(actionId: string): Promise<ApprovalOutcome>;
  reject(actionId: string): Promise<ApprovalOutcome>;
}

export type ActionOutcome = GatewayOutcome & { action_id?: string; version?: number };

export interface ConnectorWorld {
  connector: AnyConnector;
  db: Db;
  gw: Gateway;
  /** Alice's agent, in the tenant whose system the world is connected to. */
  agent: TestAgent;
  /** Alice herself: the person the agent acts for, who approves. */
  person: TestPerson;
  /** An agent in another tenant, which has the connector but not this system's secrets. */
  stranger: TestAgent;
  close(): Promise<void>;
}

export interface ConnectorWorldOptions {
  /** The system's address, as an admin sets it on the Connectors page. */
  baseUrl: string;
  /** The connector's secrets by name, as an admin sets them (kept in the vault). */
  secrets?: Record<string, string>;
}

const TENANTS = [
  { id: "acme", name: "Acme" },
  { id: "globex", name: "Globex" },
];
const USERS = [
  { key: "alice", tenant: "acme", email: "alice@acme.test", name: "Alice", role: "member" },
  { key: "gina", tenant: "globex", email: "gina@globex.test", name: "Gina", role: "member" },
] as const;

let counter = 0;
const freshKey = () =>
  `kit-${Date.now().toString(36)}-${(counter++).toString(36)}-${randomBytes(3).toString("hex")}`;

function testAgent(gw: Gateway, ctx: TrustedContext): TestAgent {
  const browse = () =>
    createSignpostBrowseBackend(gw, ctx, { publicUrl: "http://signpost.test", tenantName: ctx.tenantId });
  const version = async (actionId: string) =>
    (await gw.db.action.findUnique({ where: { id: actionId }, select: { version: true } }))?.version ?? 1;
  return {
    ctx,
    start: (capability, patch = {}, entityId) =>
      gw.startAction(ctx, { capability, patch, ...(entityId ? { entity_id: entityId } : {}) }),
    advance: async (actionId, patch) =>
      gw.advanceAction(ctx, { action_id: actionId, version: await version(actionId), patch }),
    confirm: (actionId, idempotencyKey = freshKey()) =>
      gw.confirmAction(ctx, { action_id: actionId, idempotency_key: idempotencyKey }),
    verify: (actionId) => gw.verifyAction(ctx, { action_id: actionId }),
    navigate: (uri) => navigate(browse(), uri),
    submit: (uri, fields) => submit(browse(), uri, fields),
    search: (query) => search(browse(), query),
  };
}

function testPerson(gw: Gateway, ctx: TrustedContext): TestPerson {
  const decide = async (actionId: string, decision: "approve" | "reject") => {
    const row = await gw.db.action.findUnique({ where: { id: actionId }, select: { version: true } });
    return gw.decideApproval(ctx, { action_id: actionId, version: row?.version ?? 1, decision });
  };
  return { ctx, approve: (id) => decide(id, "approve"), reject: (id) => decide(id, "reject") };
}

/**
 * A real Signpost around one connector, for its tests: the connector installed from its folder
 * (or given as its definition), a fresh migrated SQLite database, the gateway every face uses,
 * and the system's address and secrets set for tenant Acme as an admin would. The system itself
 * (the real one, or the folder's stand-in) is the test's own; the egress policy is opened for
 * its address only.
 *
 * ```ts
 * const world = await startConnectorWorld(new URL(".", import.meta.url), { baseUrl, secrets: { api_key } });
 * const started = await world.agent.start("crm_add_note", { account_id: "crm_1", text: "Called back" });
 * await world.person.approve(started.action_id as string);
 * expect(await world.agent.confirm(started.action_id as string)).toMatchObject({ outcome: "applied" });
 * ```
 */
export async function startConnectorWorld(
  connector: URL | string | AnyConnector,
  options: ConnectorWorldOptions,
): Promise<ConnectorWorld> {
  // The vault needs a master key; a test world uses a throwaway one.
  process.env.SIGNPOST_MASTER_KEY ??= randomBytes(32).toString("hex");
  allowEgressTo(options.baseUrl);
  const def = await install(connector);
  const database = await createTestDatabase("sqlite");
  const db = database.db;
  const people = await seedPeople(db, TENANTS, USERS);
  for (const [name, value] of Object.entries(options.secrets ?? {}))
    await setSecret(db, { tenantId: "acme", connector: def.id, name, value });
  await db.connectorConfig.create({
    data: { tenantId: "acme", connector: def.id, settings: { baseUrl: options.baseUrl } },
  });
  const gw = createGateway({ db });
  return {
    connector: def,
    db,
    gw,
    agent: testAgent(gw, people.agent.alice),
    person: testPerson(gw, people.person.alice),
    stranger: testAgent(gw, people.agent.gina),
    async close() {
      await database.drop();
      resetInstalledConnectors();
    },
  };
}

async function install(connector: URL | string | AnyConnector): Promise<AnyConnector> {
  if (typeof connector === "string" || connector instanceof URL)
    return installConnectorFolder(connector instanceof URL ? fileURLToPath(connector) : connector);
  const registered = registerConnector(connector);
  if (!registered.ok) throw new Error(`connector ${connector.id} was not installed: ${registered.problem}`);
  return connector;
}
