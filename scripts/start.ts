// `npm start` / `npm run dev`: the whole demo on one machine. Builds the console if needed,
// applies migrations, seeds the demo on first start, runs the demo legacy service and Signpost
// itself (scripts/serve.ts, the production entry) as child processes, says where everything is,
// and on SIGTERM/SIGINT stops Signpost first (in-flight calls finish), then the legacy service
// it was calling, and exits 0. Every line it prints is a JSON log line; on a terminal the demo's
// logins and agent key are also printed for the person reading.
// package.json runs it as `exec node --import tsx scripts/start.ts`: `exec`, because npm runs a
// script under `sh -c` and that shell would take a SIGTERM (what a container's stop sends to
// npm, which passes it on) and die without passing it on, leaving this process and its children
// running; node directly, because the tsx command line is one more process in between, which
// SIGKILLs its child when that does not acknowledge a signal within 30 ms (a busy machine).
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { checkConfig, demoConfigSchema } from "@/server/config/signpost-config";
import { applyPendingMigrations, describeMigrationReport } from "@/server/db/apply-pending-migrations";
import { createDb } from "@/server/db/client";
import { createDatabase, databaseExists, describeDatabase } from "@/server/db/database-state";
import { databaseUrl } from "@/server/db/database-url";
import { PRIVATE_UMASK, tightenDataDir } from "@/server/db/tighten-data-dir";
import { checkMasterKey } from "@/server/gateway/master-key-check";
import { masterKey } from "@/server/gateway/vault";
import { logger } from "@/server/logger";
import {
  type DemoInfo,
  loadOrCreateLegacyKeys,
  readDemoInfo,
  saveLegacyKeys,
  writeDemoInfo,
} from "./demo-files";
import { buildIfNeeded, root, runLogged } from "./next-build";
import { repointConnectors, seedDemo } from "./seed-demo";

const require = createRequire(import.meta.url);
const tsx = pathToFileURL(require.resolve("tsx")).href;
const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { dev: { type: "boolean", default: false }, create: { type: "boolean", default: false } },
  strict: true,
});
const dev = flags.dev;

/** Logs why the start stopped and exits non-zero (plain text too on a terminal). */
function fail(message: string, details: Record<string, unknown> = {}): never {
  logger.fatal({ event: "start_refused", ...details }, message);
  if (process.stderr.isTTY) process.stderr.write(`signpost: ${message}\n`);
  process.exit(1);
}

/** For the person at a terminal only: a log line is what machines read. */
function tell(line = ""): void {
  if (process.stdout.isTTY) process.stdout.write(`${line}\n`);
}

// ---- children ----------------------------------------------------------------------------

async function waitFor(url: string, timeoutMs: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the child has exited. */
function stopChild(child: ChildProcess | undefined, graceMs: number): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolvePromise();
    });
    child.kill("SIGTERM");
  });
}

// ---- main --------------------------------------------------------------------------------

async function main(): Promise<void> {
  const checked = checkConfig(demoConfigSchema, process.env);
  if (!checked.ok)
    fail(`invalid configuration:\n  ${checked.errors.join("\n  ")}`, { errors: checked.errors });
  const env = checked.config;
  if (env.PORT === env.LEGACY_PORT) fail("PORT and LEGACY_PORT must differ");
  const dataDir = resolve(env.SIGNPOST_DATA_DIR);
  const explicitDatabase = !!process.env.DATABASE_URL?.trim();
  const url = databaseUrl({ ...process.env, SIGNPOST_DATA_DIR: dataDir });
  // Children and in-process modules all see the same absolute locations.
  process.env.SIGNPOST_DATA_DIR = dataDir;
  process.env.DATABASE_URL = url;

  const started = Date.now();
  // The first line says where the logins and the agent key will be, so that a person who started
  // it without a terminal (a service, an IDE's run button, a container's log) finds them before
  // the first start's console build (a minute or two) has even begun.
  logger.info(
    { event: "starting", demo_file: join(dataDir, "demo.json") },
    `Starting the Signpost demo: when it is running, the console is at http://${env.HOST === "0.0.0.0" ? "127.0.0.1" : env.HOST}:${env.PORT} and the demo logins and agent keys are in ${join(dataDir, "demo.json")} (mode 0600). The first start builds the console first.`,
  );
  // After a `git pull` that changed the schema, the generated clients (not committed) are stale.
  const generate = await runLogged("prisma generate", process.execPath, [
    join(root, "scripts/generate-clients.mjs"),
    "--if-stale",
  ]);
  if (generate.code !== 0) fail("prisma generate failed", { output: generate.tail });
  if (!dev && !env.SIGNPOST_SKIP_BUILD) await buildIfNeeded().catch((e: Error) => fail(e.message));

  // From here on everything written (the database and its -wal/-shm, which SQLite creates itself,
  // the legacy store, keys, demo.json) is owner-only, in this process and the children it starts.
  // After the build: .next/ is not data and keeps the usual modes.
  process.umask(PRIVATE_UMASK);
  const tightened = tightenDataDir(dataDir);
  const mode = (bits: number) => bits.toString(8).padStart(4, "0");
  if (tightened.length > 0) {
    logger.info(
      `Tightened the data directory to owner-only: ${tightened
        .map((t) => `${relative(dirname(dataDir), t.path)} ${mode(t.from)} → ${mode(t.to)}`)
        .join(", ")}`,
    );
  }
  // The demo makes its own SQLite file; a database someone named must exist (or --create).
  if (!(await databaseExists(url))) {
    if (explicitDatabase && !flags.create)
      fail(
        `${describeDatabase(url)} does not exist. Check DATABASE_URL, or pass --create (npm start -- --create).`,
      );
    await createDatabase(url);
  }
  logger.info({ database: describeDatabase(url) }, `Database: ${describeDatabase(url)}`);
  const migrated = await applyPendingMigrations(url);
  if (migrated.kind === "failed_before") fail(migrated.message);
  logger.info({ event: "migrations", ...migrated }, describeMigrationReport(migrated));
  masterKey(); // creates <data dir>/master.key on first start when SIGNPOST_MASTER_KEY is not set

  const legacyKeys = loadOrCreateLegacyKeys(dataDir);
  const legacyUrl = `http://127.0.0.1:${env.LEGACY_PORT}`;
  const consoleUrl = `http://${env.HOST === "0.0.0.0" ? "127.0.0.1" : env.HOST}:${env.PORT}`;

  const db = createDb(url);
  const key = await checkMasterKey(db);
  if (!key.ok) {
    await db.$disconnect();
    fail(key.message, { reason: key.reason });
  }

  // One instance with no balancer in front: nothing to wait for before it stops, unless asked.
  const drainS = process.env.SIGNPOST_DRAIN_S?.trim() ? env.SIGNPOST_DRAIN_S : 0;
  let signpost: ChildProcess | undefined;
  let legacy: ChildProcess | undefined;
  let stopping = false;
  const shutdown = async (code: number, why: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ event: "shutdown", why }, `Stopping (${why})…`);
    // Signpost first: its in-flight calls still reach the legacy service while they finish.
    await stopChild(signpost, (drainS + env.SIGNPOST_SHUTDOWN_GRACE_S + 10) * 1000);
    await stopChild(legacy, 10_000);
    logger.info({ event: "stopped" }, "Stopped.");
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0, "SIGINT"));
  process.on("SIGTERM", () => void shutdown(0, "SIGTERM"));
  const watch = (name: string, child: ChildProcess) =>
    child.on("exit", (code, signal) => {
      if (stopping) return;
      logger.error({ child: name, code, signal }, `${name} stopped unexpectedly; shutting down`);
      void shutdown(1, `${name} stopped`);
    });

  legacy = spawn(process.execPath, ["--import", tsx, join(root, "server/legacy/main.ts")], {
    cwd: root,
    // Its own process group: Ctrl-C at a terminal signals the whole foreground group at once, and
    // the legacy service must stop after Signpost's in-flight calls are done, when we stop it.
    // The IPC channel only tells it when this process is gone without having stopped it.
    detached: true,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: {
      ...process.env,
      LEGACY_PORT: String(env.LEGACY_PORT),
      LEGACY_HOST: "127.0.0.1",
      LEGACY_DB: join(dataDir, "legacy.sqlite"),
      LEGACY_API_KEYS: JSON.stringify(legacyKeys.apiKeys),
      LEGACY_ADMIN_KEY: legacyKeys.adminKey,
      LEGACY_LOG: env.LEGACY_LOG,
    },
  });
  watch("the legacy service", legacy);
  try {
    await waitFor(`${legacyUrl}/health`, 30_000, legacy);
  } catch (error) {
    logger.error({ err: String(error) }, "the legacy service failed to start");
    return shutdown(1, "legacy service did not start");
  }

  let demo: DemoInfo | null;
  try {
    const seeded = await seedDemo(db, {
      legacyUrl,
      legacyApiKeys: legacyKeys.apiKeys,
      password: env.SIGNPOST_DEMO_PASSWORD,
    });
    if (seeded) {
      logger.info("Seeded the demo data (first start).");
      demo = {
        consoleUrl,
        mcpUrl: `${consoleUrl}/mcp`,
        legacy: { url: legacyUrl, adminKey: legacyKeys.adminKey },
        ...seeded,
      };
    } else {
      // Later starts: the connectors follow the legacy service if its port changed.
      if (legacyKeys.url) await repointConnectors(db, legacyKeys.url, legacyUrl);
      const previous = readDemoInfo(dataDir);
      demo = previous
        ? {
            ...previous,
            consoleUrl,
            mcpUrl: `${consoleUrl}/mcp`,
            legacy: { url: legacyUrl, adminKey: legacyKeys.adminKey },
          }
        : null;
    }
    saveLegacyKeys(dataDir, { ...legacyKeys, url: legacyUrl });
    if (demo) writeDemoInfo(dataDir, demo);
  } finally {
    await db.$disconnect();
  }

  // Signpost itself: the production entry, which checks its settings and the master key,
  // runs the background jobs and serves; it stops gracefully on SIGTERM. Migrated already.
  signpost = spawn(
    process.execPath,
    ["--import", tsx, join(root, "scripts/serve.ts"), "--no-migrate", ...(dev ? ["--dev"] : [])],
    {
      cwd: root,
      // An IPC channel only so that it notices if this process dies without stopping it.
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      env: {
        ...process.env,
        PORT: String(env.PORT),
        SIGNPOST_LEGACY_URL: legacyUrl,
        // The demo's legacy service is on loopback, which the egress policy refuses unless allowed.
        SIGNPOST_EGRESS_ALLOW: [process.env.SIGNPOST_EGRESS_ALLOW, `127.0.0.1:${env.LEGACY_PORT}`]
          .filter((entry) => entry?.trim())
          .join(","),
        LEGACY_PORT: String(env.LEGACY_PORT),
        // Links given to agents and sent by email open the console where it was printed (not a
        // "localhost" the person is not signed in at), unless SIGNPOST_PUBLIC_URL says otherwise.
        SIGNPOST_PUBLIC_URL: env.SIGNPOST_PUBLIC_URL ?? consoleUrl,
        SIGNPOST_SKIP_BUILD: "1", // built above
        SIGNPOST_DRAIN_S: String(drainS),
        NODE_NO_WARNINGS: "1", // it logs them as JSON lines itself
        NODE_ENV: dev ? "development" : "production",
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
  );
  watch("Signpost", signpost);
  try {
    await waitFor(`${consoleUrl}/api/health`, dev ? 180_000 : 60_000, signpost);
  } catch (error) {
    logger.error({ err: String(error) }, "the console did not become healthy");
    return shutdown(1, "console did not become healthy");
  }

  const demoFile = join(dataDir, "demo.json");
  logger.info(
    {
      event: "ready",
      pid: process.pid,
      console: consoleUrl,
      mcp: `${consoleUrl}/mcp`,
      health: { live: `${consoleUrl}/api/health/live`, ready: `${consoleUrl}/api/health/ready` },
      legacy: legacyUrl,
      demo_file: demo ? demoFile : null,
      seconds: (Date.now() - started) / 1000,
    },
    `Signpost is running (ready in ${((Date.now() - started) / 1000).toFixed(1)} s): console ${consoleUrl}, MCP ${consoleUrl}/mcp; demo logins and agent keys in ${demoFile} (mode 0600)`,
  );
  tell();
  tell(`Signpost is running.`);
  tell(`  Console         ${consoleUrl}`);
  tell(`  MCP endpoint    ${consoleUrl}/mcp`);
  tell(`  Health          ${consoleUrl}/api/health/ready`);
  tell(`  Legacy service  ${legacyUrl}  (OpenAPI: ${legacyUrl}/openapi.json)`);
  if (demo) {
    tell("  Demo logins:");
    for (const login of demo.logins)
      tell(`    ${login.email.padEnd(18)} ${login.password.padEnd(20)} ${login.role} @ ${login.tenant}`);
    const agent = demo.agents.find((a) => a.user === "alice@acme.test") ?? demo.agents[0];
    if (agent) tell(`  Agent key (${agent.name}): ${agent.key}`);
  } else {
    tell(
      "  (demo.json is missing: logins and keys were printed at the first start; `npx signpost mint-key` makes new keys)",
    );
  }
  tell(`  Everything above is in ${demoFile} (mode 0600; the data directory is 0700).`);
  tell("  Stop with Ctrl-C.");
  tell();
}

main().catch((error) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)));
