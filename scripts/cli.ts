// The commands behind `npx signpost`. Each prints what a person needs and exits non-zero on
// failure; nothing here asks questions, so scripts and CI can use it.
import { parseArgs } from "node:util";
import { z } from "zod";
import { createDb, type Db } from "@/server/db/client";
import { databaseUrl, dataDir, providerOf } from "@/server/db/database-url";
import { migrateDeploy } from "@/server/db/migrations";
import { PRIVATE_UMASK } from "@/server/db/tighten-data-dir";
import { mintAgentKey } from "@/server/gateway/agent-keys";
import { hashPassword } from "@/server/gateway/passwords";
import { loadOrCreateLegacyKeys, readDemoInfo, saveLegacyKeys, writeDemoInfo } from "./demo-files";
import { seedDemo } from "./seed-demo";

// Everything this CLI writes (database, legacy.json, demo.json) belongs in the owner-only data
// directory: files 0600, folders 0700.
process.umask(PRIVATE_UMASK);

const HELP = `Usage: npx signpost <command> [options]

Commands:
  migrate                              apply pending database migrations (prisma migrate deploy)
  seed                                 migrate, then seed the demo data if the database is empty
  create-user --tenant <id> --email <email> --name <name> --role <admin|support|member>
              [--password <pw>] [--tenant-name <name>]
                                       add a console user (a missing tenant is created when
                                       --tenant-name is given); prints a password if none given
  mint-key --email <user email> [--name <agent name>]
                                       create an agent acting for that user; prints its key once
  revoke-key <agent id | key prefix>   revoke an agent's key (it stops working at once)
  list-agents [--tenant <id>]          agents with prefix, owner and state (never keys)
  mcp [--key <agent key>] [--faces actions,browse]
                                       serve the MCP stdio face for a local MCP host

Environment: DATABASE_URL, SIGNPOST_DATA_DIR (./data), SIGNPOST_MASTER_KEY, LEGACY_PORT (4010).`;

function fail(message: string): never {
  process.stderr.write(`signpost: ${message}\n`);
  process.exit(1);
}

const roleSchema = z.enum(["admin", "support", "member"]);

async function withDb<T>(run: (db: Db) => Promise<T>): Promise<T> {
  const db = createDb(databaseUrl());
  try {
    return await run(db);
  } finally {
    await db.$disconnect();
  }
}

async function migrate(): Promise<void> {
  const url = databaseUrl();
  await migrateDeploy(url);
  console.log(`Migrations applied (${providerOf(url)}).`);
}

async function seed(): Promise<void> {
  await migrate();
  const dir = dataDir();
  const keys = loadOrCreateLegacyKeys(dir);
  const legacyUrl = `http://127.0.0.1:${process.env.LEGACY_PORT || "4010"}`;
  const result = await withDb((db) =>
    seedDemo(db, {
      legacyUrl,
      legacyApiKeys: keys.apiKeys,
      password: process.env.SIGNPOST_DEMO_PASSWORD || undefined,
    }),
  );
  if (!result) {
    console.log("The database already has data: nothing seeded.");
    return;
  }
  saveLegacyKeys(dir, { ...keys, url: legacyUrl });
  const consoleUrl = `http://127.0.0.1:${process.env.PORT || "3000"}`;
  writeDemoInfo(dir, {
    consoleUrl,
    mcpUrl: `${consoleUrl}/mcp`,
    legacy: { url: legacyUrl, adminKey: keys.adminKey },
    ...result,
  });
  console.log("Seeded. Demo logins:");
  for (const login of result.logins)
    console.log(`  ${login.email}  ${login.password}  (${login.role} @ ${login.tenant})`);
  for (const agent of result.agents) console.log(`  agent key for ${agent.user}: ${agent.key}`);
  console.log(`Saved to ${dataDir()}/demo.json (mode 0600).`);
}

async function createUser(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      tenant: { type: "string" },
      email: { type: "string" },
      name: { type: "string" },
      role: { type: "string" },
      password: { type: "string" },
      "tenant-name": { type: "string" },
    },
    strict: true,
  });
  const input = z
    .object({
      tenant: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "tenant ids are lowercase slugs"),
      email: z.string().trim().toLowerCase().email(),
      name: z.string().trim().min(1).max(100),
      role: roleSchema,
      password: z.string().min(8, "passwords need at least 8 characters").optional(),
      "tenant-name": z.string().trim().min(1).max(100).optional(),
    })
    .safeParse(values);
  if (!input.success) fail(input.error.issues.map((i) => `--${i.path.join(".")}: ${i.message}`).join("; "));
  const { tenant, email, name, role } = input.data;
  const { randomBytes } = await import("node:crypto");
  const password = input.data.password ?? randomBytes(12).toString("base64url");
  await withDb(async (db) => {
    const existingTenant = await db.tenant.findUnique({ where: { id: tenant } });
    if (!existingTenant) {
      if (!input.data["tenant-name"]) fail(`no tenant "${tenant}" (add --tenant-name to create it)`);
      await db.tenant.create({ data: { id: tenant, name: input.data["tenant-name"] } });
      console.log(`Created tenant ${tenant}.`);
    }
    if (await db.user.findUnique({ where: { email } })) fail(`a user with email ${email} already exists`);
    await db.user.create({
      data: { tenantId: tenant, email, name, role, passwordHash: await hashPassword(password) },
    });
  });
  console.log(`Created ${role} ${email} in ${tenant}.`);
  if (!input.data.password) console.log(`Password: ${password}`);
}

async function mintKey(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { email: { type: "string" }, name: { type: "string" } },
    strict: true,
  });
  if (!values.email) fail("--email <user email> is required");
  const email = values.email.trim().toLowerCase();
  await withDb(async (db) => {
    const user = await db.user.findUnique({ where: { email } });
    if (!user) fail(`no user ${email}`);
    const minted = mintAgentKey();
    const agent = await db.agent.create({
      data: {
        tenantId: user.tenantId,
        userId: user.id,
        name: values.name?.trim() || `${user.name}'s agent`,
        keyHash: minted.keyHash,
        keyPrefix: minted.keyPrefix,
      },
    });
    console.log(`Agent ${agent.id} "${agent.name}" acts for ${email} (${user.role} @ ${user.tenantId}).`);
    console.log(`Key (shown once): ${minted.key}`);
  });
}

async function revokeKey(args: string[]): Promise<void> {
  const ref = args[0]?.trim();
  if (!ref) fail("revoke-key <agent id | key prefix>");
  await withDb(async (db) => {
    const agents = await db.agent.findMany({ where: { OR: [{ id: ref }, { keyPrefix: ref }] } });
    if (agents.length === 0) fail(`no agent with id or key prefix ${ref}`);
    if (agents.length > 1) fail(`${ref} matches ${agents.length} agents; use the agent id`);
    const agent = agents[0];
    if (!agent) fail("unreachable");
    if (agent.revokedAt) {
      console.log(`Agent ${agent.id} was already revoked at ${agent.revokedAt.toISOString()}.`);
      return;
    }
    await db.agent.update({ where: { id: agent.id }, data: { revokedAt: new Date() } });
    console.log(`Revoked agent ${agent.id} "${agent.name}" (${agent.keyPrefix}).`);
  });
}

async function listAgents(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { tenant: { type: "string" } }, strict: true });
  await withDb(async (db) => {
    const agents = await db.agent.findMany({
      where: values.tenant ? { tenantId: values.tenant } : {},
      include: { user: true },
      orderBy: [{ tenantId: "asc" }, { createdAt: "asc" }],
    });
    for (const agent of agents) {
      const state = agent.revokedAt ? `revoked ${agent.revokedAt.toISOString()}` : "active";
      console.log(
        `${agent.id}  ${agent.keyPrefix}  ${agent.tenantId}  ${agent.user.email}  "${agent.name}"  ${state}`,
      );
    }
    if (agents.length === 0) console.log("No agents.");
  });
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  switch (command) {
    case "migrate":
      return migrate();
    case "seed":
      return seed();
    case "create-user":
      return createUser(args);
    case "mint-key":
      return mintKey(args);
    case "revoke-key":
      return revokeKey(args);
    case "list-agents":
      return listAgents(args);
    case "demo": {
      const demo = readDemoInfo(dataDir());
      if (!demo) fail("no demo.json in the data directory");
      console.log(JSON.stringify(demo, null, 2));
      return;
    }
    case undefined:
    case "help":
    case "--help":
    case "-h":
      console.log(HELP);
      return;
    default:
      console.error(HELP);
      fail(`unknown command "${command}"`);
  }
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
