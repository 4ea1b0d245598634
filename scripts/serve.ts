// `npx signpost serve`: Signpost alone, for production — no demo legacy service, no demo data.
// In order: check every setting, find (or with --create make) the database, apply pending
// migrations, refuse to start when this instance's master key is not the database's, start the
// background jobs and the HTTP server; on SIGTERM/SIGINT answer readiness with 503 for
// SIGNPOST_DRAIN_S while still serving (the balancer takes it out of rotation), then stop
// accepting, let in-flight calls finish (bounded), stop the jobs, close the database, exit 0.
// `npm start` runs this same entry as its child (--no-migrate: it has migrated and seeded
// already; no drain unless SIGNPOST_DRAIN_S is set: one instance has no balancer to leave).
// Every line it prints is a JSON log line.
// First: every console line, of libraries loading below too, is a JSON log line.
import "./route-console-to-logger";
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseArgs } from "node:util";
import { mcpNodeRoute } from "@/mcp/mcp-node-route";
import { getSignpostMcp } from "@/mcp/signpost-mcp";
import { checkServerConfig, type ServerConfig } from "@/server/config/signpost-config";
import { installConnectorsFromEnv } from "@/server/connectors/install-connectors";
import { applyPendingMigrations, describeMigrationReport } from "@/server/db/apply-pending-migrations";
import { createDb, type Db } from "@/server/db/client";
import { createDatabase, databaseExists, describeDatabase, migrationState } from "@/server/db/database-state";
import { databaseUrl, dataDir } from "@/server/db/database-url";
import { PRIVATE_UMASK, tightenDataDir } from "@/server/db/tighten-data-dir";
import { createGateway } from "@/server/gateway/create-gateway";
import { beginDrain } from "@/server/gateway/draining";
import { checkMasterKey } from "@/server/gateway/master-key-check";
import { agentRateFromEnv } from "@/server/gateway/rate-limiter";
import { masterKey, masterKeyFile } from "@/server/gateway/vault";
import { type BackgroundJobs, signpostJobs, startBackgroundJobs } from "@/server/jobs/background-jobs";
import { logger } from "@/server/logger";
import { ssoConfigFromEnv } from "@/server/oauth/console-sso";
import { createAuthorizationServers } from "@/server/oauth/create-authorization-server";
import { buildIfNeeded, root } from "./next-build";
import { type NextHttpServer, startNextHttpServer } from "./next-http-server";

/** Logs why the start is refused and exits non-zero: one JSON line (plain text too on a terminal). */
function refuse(message: string, details: Record<string, unknown> = {}): never {
  logger.fatal({ event: "start_refused", ...details }, message);
  if (process.stderr.isTTY) process.stderr.write(`signpost: ${message}\n`);
  process.exit(1);
}

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    create: { type: "boolean", default: false },
    "no-migrate": { type: "boolean", default: false },
    dev: { type: "boolean", default: false },
  },
  strict: true,
});

process.on("uncaughtException", (error) => {
  logger.fatal({ err: error.stack ?? error.message }, "uncaught exception; exiting");
  process.exit(1);
});
// Node's own warnings as log lines too (the launchers set NODE_NO_WARNINGS so that Node does not
// also print them as plain text).
process.on("warning", (warning) => logger.warn({ err: warning.message, name: warning.name }, "node warning"));
process.on("unhandledRejection", (reason) => {
  logger.error({ err: reason instanceof Error ? reason.stack : String(reason) }, "unhandled rejection");
});

type NodeRoute = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/** Routes answered before Next.js, in order; false when none of them answered. */
function firstThatAnswers(...routes: NodeRoute[]): NodeRoute {
  return async (req, res) => {
    for (const route of routes) if (await route(req, res)) return true;
    return false;
  };
}

async function prepareDatabase(url: string): Promise<void> {
  if (!(await databaseExists(url))) {
    if (!flags.create)
      refuse(
        `${describeDatabase(url)} does not exist. Check DATABASE_URL (and SIGNPOST_DATA_DIR), or pass --create to create it.`,
      );
    await createDatabase(url);
    logger.info(`Created ${describeDatabase(url)}.`);
  }
  if (flags["no-migrate"]) {
    const state = await migrationState(url, root);
    if (state.pending.length > 0 || state.failed.length > 0)
      refuse(
        `${describeDatabase(url)} is missing ${state.pending.length} migration(s) (${state.pending.join(", ")}); run \`npx signpost migrate\` first.`,
      );
    return;
  }
  const report = await applyPendingMigrations(url);
  if (report.kind === "failed_before") refuse(report.message);
  logger.info({ event: "migrations", ...report }, describeMigrationReport(report));
}

async function checkKey(db: Db): Promise<void> {
  const fromFile = !process.env.SIGNPOST_MASTER_KEY?.trim();
  let key: Buffer;
  try {
    key = masterKey();
  } catch (error) {
    refuse(`The master key cannot be read: ${(error as Error).message}`);
  }
  const check = await checkMasterKey(db, key);
  if (!check.ok) refuse(check.message, { reason: check.reason });
  if (check.sealed === "created")
    logger.info(
      fromFile
        ? `This database is now bound to the master key in ${masterKeyFile()}. Back it up; every further instance needs it as SIGNPOST_MASTER_KEY.`
        : "This database is now bound to this SIGNPOST_MASTER_KEY; every further instance needs the same one.",
    );
}

async function main(): Promise<void> {
  const checked = checkServerConfig(process.env);
  if (!checked.ok)
    refuse(`invalid configuration:\n  ${checked.errors.join("\n  ")}`, { errors: checked.errors });
  const config: ServerConfig = checked.config;

  // Everything this process writes into the data directory (SQLite and its -wal/-shm, the
  // generated master key) is owner-only.
  process.umask(PRIVATE_UMASK);
  const dir = dataDir();
  process.env.SIGNPOST_DATA_DIR = dir;
  const tightened = tightenDataDir(dir);
  if (tightened.length > 0)
    logger.info({ tightened: tightened.map((t) => t.path) }, "Tightened the data directory to owner-only");
  const url = databaseUrl();
  process.env.DATABASE_URL = url;

  // Before anything builds a gateway: the capabilities, routes and schemes they add are fixed then.
  await installConnectorsFromEnv(process.env, { typecheck: flags.dev });
  await prepareDatabase(url);
  // The jobs' own client: the Next.js bundle makes its own on first use.
  const db = createDb(url);
  await checkKey(db);
  if (!flags.dev && !config.SIGNPOST_SKIP_BUILD) await buildIfNeeded();

  let jobs: BackgroundJobs | undefined;
  if (config.SIGNPOST_JOBS) {
    const gateway = createGateway({ db });
    jobs = await startBackgroundJobs(
      url,
      signpostJobs(db, gateway, {
        intervalS: config.SIGNPOST_JOBS_INTERVAL_S,
        auditRetentionDays: config.SIGNPOST_AUDIT_RETENTION_DAYS,
      }),
    );
    logger.info({ event: "jobs_started", via: jobs.via }, `Background jobs running (${jobs.via}).`);
  } else logger.info("Background jobs are off on this instance (SIGNPOST_JOBS=0).");

  let http: NextHttpServer;
  try {
    http = await startNextHttpServer({
      port: config.PORT,
      host: config.HOST,
      dev: flags.dev,
      before: firstThatAnswers(
        // The process-wide MCP instance (on globalThis): the one app/mcp/route.ts would use too.
        mcpNodeRoute(() => getSignpostMcp().answer),
        createAuthorizationServers({
          db,
          masterKey: masterKey(),
          publicUrl: config.SIGNPOST_PUBLIC_URL,
          callsPerMinute: agentRateFromEnv(),
          sso: ssoConfigFromEnv(),
        }),
      ),
    });
  } catch (error) {
    refuse(`could not listen on ${config.HOST}:${config.PORT}: ${(error as Error).message}`);
  }
  logger.info(
    { event: "listening", url: http.url, pid: process.pid, database: describeDatabase(url) },
    `Signpost is serving on ${http.url}`,
  );

  let stopping = false;
  let skipDrain: (() => void) | undefined;
  const shutdown = async (why: string) => {
    // A second signal while draining (Ctrl-C twice, an impatient orchestrator): stop now.
    if (stopping) return skipDrain?.();
    stopping = true;
    const graceMs = config.SIGNPOST_SHUTDOWN_GRACE_S * 1000;
    // 0. still serving, but readiness answers 503 until the balancer has seen it and sends
    // nothing new here; closing the listener at once would fail the requests it still routes.
    if (config.SIGNPOST_DRAIN_S > 0) {
      beginDrain();
      logger.info(
        { event: "draining", why, drain_s: config.SIGNPOST_DRAIN_S },
        `Leaving (${why}): readiness answers 503 for ${config.SIGNPOST_DRAIN_S} s while requests are still served…`,
      );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, config.SIGNPOST_DRAIN_S * 1000);
        skipDrain = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      skipDrain = undefined;
    }
    logger.info({ event: "shutdown", why, grace_s: config.SIGNPOST_SHUTDOWN_GRACE_S }, `Stopping (${why})…`);
    // 1. no new connections; in-flight calls finish (bounded); monitor streams end with a last event.
    const { cut } = await http.close(graceMs);
    if (cut > 0)
      logger.warn(
        { cut },
        `${cut} request(s) were still running after ${config.SIGNPOST_SHUTDOWN_GRACE_S} s and were cut`,
      );
    // 2. the jobs: a run in progress finishes; pg-boss gives back what it holds.
    await jobs
      ?.stop(Math.max(1_000, graceMs / 2))
      .catch((error: Error) => logger.warn({ err: error.message }, "jobs did not stop cleanly"));
    // 3. the database connections (the bundle's client too: it lives on globalThis).
    await db.$disconnect().catch(() => undefined);
    const bundled = (globalThis as { __signpostDb?: Db }).__signpostDb;
    await bundled?.$disconnect().catch(() => undefined);
    logger.info({ event: "stopped" }, "Stopped.");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  // Started by `npm start`: if that parent dies without telling us, do not live on as an orphan.
  if (process.send) process.on("disconnect", () => void shutdown("parent exited"));
}

main().catch((error) => refuse(error instanceof Error ? (error.stack ?? error.message) : String(error)));
