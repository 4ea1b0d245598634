// stays-whole: a table-driven test: every model written and read back on each provider.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { createTestDatabase, describeEachProvider, type TestDatabase } from "@/test/helpers/database";

// Protects: the committed migrations of each provider create every model of schema.prisma with
// every field, and values of each type (text, int, autoincrement, JSON, boolean, dates, nulls)
// survive a write and a read on both SQLite and PostgreSQL.

const SCALARS = new Set([
  "String",
  "Int",
  "BigInt",
  "Float",
  "Decimal",
  "Boolean",
  "DateTime",
  "Json",
  "Bytes",
]);

/** Models and their scalar fields, read from the schema itself so a new field cannot hide. */
function schemaModels(): Map<string, string[]> {
  const text = readFileSync(new URL("../../prisma/sqlite/schema.prisma", import.meta.url), "utf8");
  const models = new Map<string, string[]>();
  for (const match of text.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const fields: string[] = [];
    for (const line of (match[2] ?? "").split("\n")) {
      const field = /^\s+(\w+)\s+(\w+)(\?|\[\])?/.exec(line);
      if (field?.[1] && field[2] && SCALARS.has(field[2]) && field[3] !== "[]") fields.push(field[1]);
    }
    models.set(match[1] ?? "", fields);
  }
  return models;
}

const at = (iso: string) => new Date(iso);

/** One fully populated row per model, written in dependency order; returns what was written. */
async function writeEveryModel(db: Db): Promise<Record<string, Record<string, unknown>>> {
  const written: Record<string, Record<string, unknown>> = {};
  const tenant = {
    id: "acme",
    name: "Acme Inc.",
    createdAt: at("2026-01-02T03:04:05.678Z"),
    scriptLimits: { maxCalls: 20 },
    passwordSignIn: false,
  };
  await db.tenant.create({ data: tenant });
  written.Tenant = tenant;

  const user = {
    id: "user_1",
    tenantId: "acme",
    email: "alice@acme.test",
    notifyEmail: false,
    notifyBrowser: true,
    name: "Alice Ämber 🚀",
    role: "member",
    passwordHash: "scrypt$abc$def",
    createdAt: at("2026-01-02T03:04:05.000Z"),
  };
  await db.user.create({ data: user });
  written.User = user;

  const session = {
    id: "sess_1",
    tokenHash: "th_1",
    userId: "user_1",
    tenantId: "acme",
    expiresAt: at("2026-02-01T00:00:00.000Z"),
    createdAt: at("2026-01-03T00:00:00.000Z"),
  };
  await db.session.create({ data: session });
  written.Session = session;

  const signInFailure = {
    id: "sif_1",
    email: "alice@acme.test",
    ip: "203.0.113.7",
    createdAt: at("2026-01-03T00:01:00.000Z"),
  };
  await db.signInFailure.create({ data: signInFailure });
  written.SignInFailure = signInFailure;

  const consumedNonce = { nonce: "nonce_1", expiresAt: at("2026-01-03T00:11:00.000Z") };
  await db.consumedNonce.create({ data: consumedNonce });
  written.ConsumedNonce = consumedNonce;

  const agent = {
    id: "agent_1",
    tenantId: "acme",
    name: "Alice's assistant",
    revokedById: "user_1",
    userId: "user_1",
    keyHash: "kh_1",
    keyPrefix: "sp_ab12cd34",
    oauthClientId: "https://host.example/client.json",
    faces: "actions,script",
    revokedAt: at("2026-03-01T00:00:00.000Z"),
    lastUsedAt: at("2026-02-28T12:00:00.000Z"),
    createdAt: at("2026-01-04T00:00:00.000Z"),
  };
  await db.agent.create({ data: agent });
  written.Agent = agent;

  const state = {
    applied: { items: [{ productId: "prod_mug", quantity: 2 }] },
    total: 3600,
    note: null,
    ok: true,
  };
  const action = {
    id: "act_1",
    tenantId: "acme",
    agentId: "agent_1",
    userId: "user_1",
    capability: "checkout",
    entityType: "order",
    entityId: "ord_1",
    node: "payment",
    version: 7,
    status: "awaiting_approval",
    state,
    startKey: "agent_1:start-key-1",
    createdAt: at("2026-01-05T00:00:00.000Z"),
  };
  await db.action.create({ data: action });
  written.Action = action;

  const event = {
    id: "evt_1",
    actionId: "act_1",
    version: 7,
    kind: "advanced",
    node: "payment",
    data: [1, "two", { three: 3 }],
    createdAt: at("2026-01-05T00:00:01.000Z"),
  };
  await db.actionEvent.create({ data: event });
  written.ActionEvent = event;

  const effect = {
    id: "eff_1",
    actionId: "act_1",
    actionKey: "ak_1",
    tenantId: "acme",
    kind: "shop.payment",
    status: "unknown",
    request: { amount: 3600 },
    response: { id: "pay_1" },
    externalId: "pay_1",
    error: "timeout",
    attempts: 2,
    createdAt: at("2026-01-05T00:00:02.000Z"),
  };
  await db.effect.create({ data: effect });
  written.Effect = effect;

  const approval = {
    id: "appr_1",
    actionId: "act_1",
    tenantId: "acme",
    userId: "user_1",
    version: 7,
    summaryDigest: "sha256:abc",
    summary: { lines: ["Pay 36.00 USD"] },
    status: "approved",
    decidedById: "user_1",
    decidedVia: "console",
    reason: "looks right",
    expiresAt: at("2026-01-05T00:30:03.000Z"),
    createdAt: at("2026-01-05T00:00:03.000Z"),
    decidedAt: at("2026-01-05T00:10:00.000Z"),
  };
  await db.approval.create({ data: approval });
  written.Approval = approval;

  const rule = {
    id: "rule_1",
    tenantId: "acme",
    subjectType: "agent",
    updatedById: "user_1",
    subjectId: "agent_1",
    verb: "navigate",
    pattern: "shop://order/*",
    decision: "allow",
    position: 3,
    note: "orders are fine",
    createdById: "user_1",
    createdAt: at("2026-01-06T00:00:00.000Z"),
  };
  await db.permissionRule.create({ data: rule });
  written.PermissionRule = rule;

  const request = {
    id: "preq_1",
    tenantId: "acme",
    agentId: "agent_1",
    verb: "submit",
    target: "shop://order/ord_1/after-sales",
    reason: "customer asked",
    status: "granted",
    grantMode: "once",
    decidedById: "user_1",
    decidedAt: at("2026-01-06T00:05:00.000Z"),
    createdAt: at("2026-01-06T00:01:00.000Z"),
  };
  await db.permissionRequest.create({ data: request });
  written.PermissionRequest = request;

  const audit = {
    tenantId: "acme",
    agentId: "agent_1",
    userId: "user_1",
    requestId: "req_1",
    face: "actions",
    operation: "action.started",
    target: "checkout",
    capability: "checkout",
    arguments: { card: "[redacted]" },
    decision: "allow",
    outcome: "applied",
    message: "started",
    latencyMs: 12,
    actionId: "act_1",
    actionKey: "ak_1",
    createdAt: at("2026-01-07T00:00:00.000Z"),
  };
  const first = await db.auditEvent.create({ data: { ...audit, seq: 1 } });
  const second = await db.auditEvent.create({ data: { ...audit, seq: 2, operation: "action.advanced" } });
  // Per-tenant numbering: the pair (tenant, seq) is unique.
  await expect(db.auditEvent.create({ data: { ...audit, seq: 2 } })).rejects.toThrow(/Unique constraint/);
  expect(second.id).toBeGreaterThan(first.id);
  written.AuditEvent = { ...audit, seq: first.seq };

  const sealed = {
    id: "master",
    ciphertext: "Y2lwaGVy",
    nonce: "bm9uY2U=",
    tag: "dGFn",
    createdAt: at("2026-01-08T00:00:00.000Z"),
  };
  await db.masterKeyCheck.create({ data: sealed });
  written.MasterKeyCheck = sealed;

  // On SQLite a trigger moved the counter with the rows above (…_sqlite_audit_counter_trigger).
  const counter = { tenantId: "acme", seq: 2 };
  await db.auditCounter.upsert({ where: { tenantId: "acme" }, create: counter, update: counter });
  written.AuditCounter = counter;

  const secret = {
    id: "sec_1",
    tenantId: "acme",
    connector: "shop",
    name: "api_key",
    ciphertext: "Y2lwaGVy",
    nonce: "bm9uY2U=",
    tag: "dGFn",
    updatedById: "user_1",
    createdAt: at("2026-01-08T00:00:00.000Z"),
  };
  await db.secret.create({ data: secret });
  written.Secret = secret;

  const config = {
    id: "cfg_1",
    tenantId: "acme",
    connector: "shop",
    settings: { baseUrl: "http://127.0.0.1:4010", timeoutMs: 5000 },
    enabled: false,
  };
  await db.connectorConfig.create({ data: config });
  written.ConnectorConfig = config;

  const imported = {
    id: "imp_1",
    tenantId: "acme",
    connector: "billing",
    title: "Billing",
    document: '{"openapi":"3.1.0","info":{"title":"Billing","version":"1"},"paths":{}}',
    baseUrl: "https://billing.example.com/v1",
    readRoles: "admin,support",
    idempotencyHeader: "Idempotency-Key",
    createdAt: at("2026-01-09T00:00:00.000Z"),
  };
  await db.importedConnector.create({ data: imported });
  written.ImportedConnector = imported;

  const oauthRecord = {
    key: "AccessToken:tok_1",
    model: "AccessToken",
    payload: '{"accountId":"user_1"}',
    grantId: "grant_1",
    uid: "uid_1",
    accountId: "user_1",
    clientId: "https://host.example/client.json",
    expiresAt: at("2026-01-10T00:00:00.000Z"),
    consumedAt: at("2026-01-10T00:01:00.000Z"),
  };
  await db.oAuthRecord.create({ data: oauthRecord });
  written.OAuthRecord = oauthRecord;

  const personConnection = {
    id: "pc_1",
    tenantId: "acme",
    userId: "user_1",
    connector: "crm",
    accessToken: '{"ciphertext":"c","nonce":"n","tag":"t"}',
    refreshToken: '{"ciphertext":"r","nonce":"n","tag":"t"}',
    scopes: "openid contacts:read",
    expiresAt: at("2026-01-10T01:00:00.000Z"),
    refreshLeaseUntil: at("2026-01-10T00:59:30.000Z"),
    createdAt: at("2026-01-10T00:00:00.000Z"),
    updatedAt: at("2026-01-10T00:30:00.000Z"),
    lastUsedAt: at("2026-01-10T00:45:00.000Z"),
  };
  await db.personConnection.create({ data: personConnection });
  written.PersonConnection = personConnection;

  const connectAttempt = {
    stateHash: "sh_1",
    tenantId: "acme",
    userId: "user_1",
    connector: "crm",
    codeVerifier: '{"ciphertext":"v","nonce":"n","tag":"t"}',
    returnTo: "crm://contacts",
    expiresAt: at("2026-01-10T00:10:00.000Z"),
    usedAt: at("2026-01-10T00:02:00.000Z"),
    createdAt: at("2026-01-10T00:00:00.000Z"),
  };
  await db.connectAttempt.create({ data: connectAttempt });
  written.ConnectAttempt = connectAttempt;

  const mcpTask = {
    id: "task_1",
    tenantId: "acme",
    agentId: "agent_1",
    actionId: "act_1",
    version: 3,
    tool: "confirm_action",
    status: "completed",
    statusMessage: "Applied",
    result: '{"content":[]}',
    claimedAt: at("2026-01-11T00:00:00.000Z"),
    createdAt: at("2026-01-11T00:00:00.000Z"),
    updatedAt: at("2026-01-11T00:01:00.000Z"),
    expiresAt: at("2026-01-12T00:00:00.000Z"),
  };
  await db.mcpTask.create({ data: mcpTask });
  written.McpTask = mcpTask;
  return written;
}

async function readEveryModel(db: Db): Promise<Record<string, Record<string, unknown> | null>> {
  return {
    Tenant: await db.tenant.findUnique({ where: { id: "acme" } }),
    User: await db.user.findUnique({ where: { email: "alice@acme.test" } }),
    Session: await db.session.findUnique({ where: { tokenHash: "th_1" } }),
    SignInFailure: await db.signInFailure.findUnique({ where: { id: "sif_1" } }),
    ConsumedNonce: await db.consumedNonce.findUnique({ where: { nonce: "nonce_1" } }),
    Agent: await db.agent.findUnique({ where: { keyHash: "kh_1" } }),
    Action: await db.action.findUnique({ where: { id: "act_1" } }),
    ActionEvent: await db.actionEvent.findUnique({ where: { id: "evt_1" } }),
    Effect: await db.effect.findUnique({ where: { actionKey: "ak_1" } }),
    Approval: await db.approval.findUnique({
      where: { actionId_version: { actionId: "act_1", version: 7 } },
    }),
    PermissionRule: await db.permissionRule.findUnique({ where: { id: "rule_1" } }),
    PermissionRequest: await db.permissionRequest.findUnique({ where: { id: "preq_1" } }),
    AuditEvent: await db.auditEvent.findFirst({ where: { operation: "action.started" } }),
    AuditCounter: await db.auditCounter.findUnique({ where: { tenantId: "acme" } }),
    MasterKeyCheck: await db.masterKeyCheck.findUnique({ where: { id: "master" } }),
    Secret: await db.secret.findUnique({
      where: { tenantId_connector_name: { tenantId: "acme", connector: "shop", name: "api_key" } },
    }),
    ConnectorConfig: await db.connectorConfig.findUnique({
      where: { tenantId_connector: { tenantId: "acme", connector: "shop" } },
    }),
    ImportedConnector: await db.importedConnector.findUnique({
      where: { tenantId_connector: { tenantId: "acme", connector: "billing" } },
    }),
    OAuthRecord: await db.oAuthRecord.findUnique({ where: { key: "AccessToken:tok_1" } }),
    McpTask: await db.mcpTask.findUnique({ where: { id: "task_1" } }),
    PersonConnection: await db.personConnection.findUnique({ where: { id: "pc_1" } }),
    ConnectAttempt: await db.connectAttempt.findUnique({ where: { stateHash: "sh_1" } }),
  };
}

describeEachProvider("every model round-trips on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("writes and reads back every field of every model", async () => {
    const models = schemaModels();
    const written = await writeEveryModel(database.db);
    const read = await readEveryModel(database.db);
    expect(Object.keys(written).sort()).toEqual([...models.keys()].sort());
    for (const [model, fields] of models) {
      const row = read[model];
      expect(row, model).toBeTruthy();
      // Every scalar column exists and holds a value (optional ones were filled in too).
      expect(Object.keys(row ?? {}).sort(), model).toEqual([...fields].sort());
      for (const field of fields) expect(row?.[field], `${model}.${field}`).not.toBeNull();
      expect(row, model).toMatchObject(written[model] ?? {});
    }
  });

  it("enforces the unique constraints exactly-once effects and approvals rest on", async () => {
    const db = database.db;
    await expect(
      db.effect.create({
        data: {
          actionId: "act_1",
          actionKey: "ak_other",
          tenantId: "acme",
          kind: "x",
          status: "pending",
          request: {},
        },
      }),
    ).rejects.toThrow();
    await expect(
      db.approval.create({
        data: {
          actionId: "act_1",
          tenantId: "acme",
          userId: "user_1",
          version: 7,
          summaryDigest: "d",
          summary: {},
          status: "pending",
        },
      }),
    ).rejects.toThrow();
  });

  it("keeps @updatedAt current and cascades action deletes", async () => {
    const db = database.db;
    const before = await db.action.findUniqueOrThrow({ where: { id: "act_1" } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const after = await db.action.update({ where: { id: "act_1" }, data: { version: { increment: 1 } } });
    expect(after.version).toBe(8);
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    await db.action.delete({ where: { id: "act_1" } });
    expect(await db.effect.count()).toBe(0);
    expect(await db.approval.count()).toBe(0);
    expect(await db.actionEvent.count()).toBe(0);
  });
});
