// The commands behind `npx signpost`. Each prints what a person needs and exits non-zero on
// failure; nothing here asks questions, so scripts and CI can use it. Admin changes go through
// the same gateway functions as the console's (manage-users, manage-agents) and are audited
// the same way, with face `cli` and no user (an operator on the server is not a Signpost user).
import { realpathSync } from "node:fs";
import { userInfo } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { applyPendingMigrations, describeMigrationReport } from "@/server/db/apply-pending-migrations";
import { createDb, type Db } from "@/server/db/client";
import { createDatabase, databaseExists, describeDatabase, migrationState } from "@/server/db/database-state";
import { databaseUrl, dataDir } from "@/server/db/database-url";
import { PRIVATE_UMASK } from "@/server/db/tighten-data-dir";
import { createAgent, createAgentInputSchema, revokeAgent } from "@/server/gateway/console/manage-agents";
import {
  createTenant,
  createTenantInputSchema,
  createUser,
  createUserInputSchema,
  tenantIdSchema,
} from "@/server/gateway/console/manage-users";
import { type AdminActor, cliActor } from "@/server/gateway/console/record-console-audit";
import { CONNECT_HELP, connectCommand } from "./connect-openapi";
import { loadOrCreateLegacyKeys, readDemoInfo, saveLegacyKeys, writeDemoInfo } from "./demo-files";
import { newConnectorCommand } from "./new-connector";
import { root } from "./next-build";
import { seedDemo } from "./seed-demo";

const HELP = `Usage: npx signpost <command> [options]

Commands:
  serve [--create]                     run Signpost (production: no demo service, no demo data);
                                       applies pending migrations first; --create makes a
                                       database that does not exist yet
  migrate [--create]                   apply pending database migrations (also while a server
                                       runs); --create makes a database that does not exist yet
  seed [--create]                      migrate, then seed the demo data if the database is empty
  create-user --tenant <id> --email <email> --name <name> --role <admin|support|member>
              [--password <pw>] [--tenant-name <name>]
                                       add a console user (a missing tenant is created when
                                       --tenant-name is given); prints a password if none given
  mint-key --email <user email> [--name <agent name>]
                                       create an agent acting for that user; prints its key once
  revoke-key <agent id | key prefix>   revoke an agent's key (it stops working at once)
  list-agents [--tenant <id>]          agents with prefix, owner and state (never keys)
  new-connector <id> [--dir <folder>]  write a working connector (pages, a form, a capability with
                                       a confirmation, a stand-in system, a test) to
                                       <folder>/<id>/ (default ./connectors)
${CONNECT_HELP}
  mcp [--key <agent key>] [--faces actions,browse]
                                       serve the MCP stdio face for a local MCP host
  --version                            print the version

Environment: DATABASE_URL, SIGNPOST_DATA_DIR (./data), SIGNPOST_MASTER_KEY, LEGACY_PORT (4010);
serve reads every variable in docs/configuration.md.`;

/** A command's refusal: the command line prints it as `signpost: <message>` and exits with 1. */
export class CliFailure extends Error {}

const toStdout = (line: string) => {
  process.stdout.write(`${line}\n`);
};
// Where `say` prints: stdout, or the caller's sink while runCli runs in-process (the tests run the
// commands in their own process rather than paying a TypeScript start per command).
let print = toStdout;

function say(line: string): void {
  print(line);
}

function fail(message: string): never {
  throw new CliFailure(message);
}

const operatorName = (() => {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? "unknown";
  }
})();

/** An audited admin change from this command line: the operator's OS account is on the row. */
function operator(tenantId: string): AdminActor {
  return cliActor(tenantId, operatorName);
}

/** Makes the database when --create says so; a missing one is an error otherwise. */
async function ensureDatabase(url: string, create: boolean): Promise<void> {
  if (await databaseExists(url)) return;
  if (!create)
    fail(
      `${describeDatabase(url)} does not exist. Check DATABASE_URL (and SIGNPOST_DATA_DIR), or pass --create to create it.`,
    );
  await createDatabase(url);
  say(`Created ${describeDatabase(url)}.`);
}

/** The database for an admin command: it must exist and be migrated (nothing is created by accident). */
async function withDb<T>(run: (db: Db) => Promise<T>): Promise<T> {
  const url = databaseUrl();
  if (!(await databaseExists(url)))
    fail(`${describeDatabase(url)} does not exist: run \`npx signpost migrate --create\` first.`);
  const state = await migrationState(url, root);
  if (state.pending.length > 0)
    fail(
      `${describeDatabase(url)} is missing ${state.pending.length} migration(s): run \`npx signpost migrate\` first.`,
    );
  const db = createDb(url);
  try {
    return await run(db);
  } finally {
    await db.$disconnect();
  }
}

function createFlag(args: string[]): boolean {
  const { values } = parseArgs({
    args,
    options: { create: { type: "boolean", default: false } },
    strict: true,
  });
  return values.create ?? false;
}

async function migrate(args: string[]): Promise<void> {
  const url = databaseUrl();
  await ensureDatabase(url, createFlag(args));
  const report = await applyPendingMigrations(url);
  if (report.kind === "failed_before") fail(report.message);
  say(describeMigrationReport(report));
}

async function seed(args: string[]): Promise<void> {
  await migrate(args);
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
    say("The database already has data: nothing seeded.");
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
  say("Seeded. Demo logins:");
  for (const login of result.logins)
    say(`  ${login.email}  ${login.password}  (${login.role} @ ${login.tenant})`);
  for (const agent of result.agents) say(`  agent key for ${agent.user}: ${agent.key}`);
  say(`Saved to ${dataDir()}/demo.json (mode 0600).`);
}

/** A zod failure as `--flag: message` lines. */
function flagErrors(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues.map((i) => `--${i.path.map(String).join(".")}: ${i.message}`).join("; ");
}

async function createUserCommand(args: string[]): Promise<void> {
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
  const tenant = tenantIdSchema.safeParse(values.tenant ?? "");
  if (!tenant.success) fail(`--tenant: ${tenant.error.issues[0]?.message}`);
  const input = createUserInputSchema.safeParse({
    email: values.email,
    name: values.name,
    role: values.role,
    password: values.password,
  });
  if (!input.success) fail(flagErrors(input.error));
  const actor = operator(tenant.data);
  await withDb(async (db) => {
    if (!(await db.tenant.findUnique({ where: { id: tenant.data } }))) {
      if (!values["tenant-name"]) fail(`no tenant "${tenant.data}" (add --tenant-name to create it)`);
      const tenantInput = createTenantInputSchema.safeParse({ id: tenant.data, name: values["tenant-name"] });
      if (!tenantInput.success) fail(flagErrors(tenantInput.error));
      const made = await createTenant(db, actor, tenantInput.data);
      if (!made.ok) fail(made.message);
      say(`Created tenant ${tenant.data}.`);
    }
    const created = await createUser(db, actor, input.data);
    if (!created.ok) fail(created.message);
    say(`Created ${input.data.role} ${input.data.email} in ${tenant.data}.`);
    if (created.value.password) say(`Password: ${created.value.password}`);
  });
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
    const input = createAgentInputSchema.safeParse({
      name: values.name?.trim() || `${user.name}'s agent`,
      userId: user.id,
    });
    if (!input.success) fail(flagErrors(input.error));
    const minted = await createAgent(db, operator(user.tenantId), input.data);
    if (!minted.ok) fail(minted.message);
    const { agent, key } = minted.value;
    say(`Agent ${agent.id} "${agent.name}" acts for ${email} (${user.role} @ ${user.tenantId}).`);
    say(`Key (shown once): ${key}`);
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
      say(`Agent ${agent.id} was already revoked at ${agent.revokedAt.toISOString()}.`);
      return;
    }
    const revoked = await revokeAgent(db, operator(agent.tenantId), agent.id);
    if (!revoked.ok) fail(revoked.message);
    say(`Revoked agent ${agent.id} "${agent.name}" (${agent.keyPrefix}).`);
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
      say(
        `${agent.id}  ${agent.keyPrefix}  ${agent.tenantId}  ${agent.user.email}  "${agent.name}"  ${state}`,
      );
    }
    if (agents.length === 0) say("No agents.");
  });
}

/**
 * Runs one command (`argv` as after `npx signpost`): resolves when it is done, rejects with a
 * CliFailure (or the error that stopped it) when it is refused. What it says goes to `sink`.
 */
export async function runCli(argv: string[], sink: (line: string) => void = toStdout): Promise<void> {
  print = sink;
  try {
    await runCommand(argv);
  } finally {
    print = toStdout;
  }
}

async function runCommand(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  switch (command) {
    case "migrate":
      return migrate(args);
    case "seed":
      return seed(args);
    case "create-user":
      return createUserCommand(args);
    case "mint-key":
      return mintKey(args);
    case "revoke-key":
      return revokeKey(args);
    case "list-agents":
      return listAgents(args);
    case "new-connector":
      return newConnectorCommand(args, say);
    case "connect":
      return connectCommand(args, { withDb, operator, say, fail });
    case "demo": {
      const demo = readDemoInfo(dataDir());
      if (!demo) fail("no demo.json in the data directory");
      say(JSON.stringify(demo, null, 2));
      return;
    }
    case undefined:
    case "help":
    case "--help":
    case "-h":
      say(HELP);
      return;
    default:
      process.stderr.write(`${HELP}\n`);
      fail(`unknown command "${command}"`);
  }
}

/** Whether this file is the program (bin/signpost.mjs runs it), not a module a test imported. */
function isProgram(): boolean {
  try {
    return realpathSync(process.argv[1] ?? "") === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

// As the program: exit 1 with the reason on stderr when the command is refused.
if (isProgram()) {
  // Everything this CLI writes (database, legacy.json, demo.json) belongs in the owner-only data
  // directory: files 0600, folders 0700.
  process.umask(PRIVATE_UMASK);
  runCli(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`signpost: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
