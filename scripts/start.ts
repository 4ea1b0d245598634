// `npm start` / `npm run dev`: the whole product on one machine. Builds the console if needed,
// applies migrations, seeds the demo on first start, runs the demo legacy service and Next.js
// as child processes, prints where everything is, and stops both cleanly on Ctrl-C/SIGTERM.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";
import { createDb } from "@/server/db/client";
import { databaseUrl, providerOf } from "@/server/db/database-url";
import { migrateDeploy } from "@/server/db/migrations";
import { PRIVATE_UMASK, tightenDataDir } from "@/server/db/tighten-data-dir";
import { smtpUrlSchema } from "@/server/gateway/mailer";
import { trustProxySchema } from "@/server/gateway/request-peer";
import { masterKey, parseMasterKey } from "@/server/gateway/vault";
import {
  type DemoInfo,
  loadOrCreateLegacyKeys,
  readDemoInfo,
  saveLegacyKeys,
  writeDemoInfo,
} from "./demo-files";
import { repointConnectors, seedDemo } from "./seed-demo";

const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);
const dev = process.argv.includes("--dev");

const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);
const port = z.coerce.number().int().min(1).max(65_535);
const envSchema = z.object({
  PORT: z.preprocess(emptyAsUndefined, port.default(3000)),
  LEGACY_PORT: z.preprocess(emptyAsUndefined, port.default(4010)),
  HOST: z.preprocess(emptyAsUndefined, z.string().default("127.0.0.1")),
  SIGNPOST_DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default("./data")),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^(file:|postgres(ql)?:\/\/)/, "DATABASE_URL must be a file: (SQLite) or postgresql:// URL")
      .optional(),
  ),
  SIGNPOST_MASTER_KEY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((value) => {
        try {
          parseMasterKey(value);
          return true;
        } catch {
          return false;
        }
      }, "SIGNPOST_MASTER_KEY must be 32 bytes as 64 hex characters or base64")
      .optional(),
  ),
  SIGNPOST_DEMO_PASSWORD: z.preprocess(emptyAsUndefined, z.string().min(8).optional()),
  /** Skip the build check (CI or a prepared image). */
  SIGNPOST_SKIP_BUILD: z.preprocess(emptyAsUndefined, z.enum(["0", "1"]).default("0")),
  LEGACY_LOG: z.preprocess(emptyAsUndefined, z.enum(["0", "1"]).default("0")),
  /** Read by the console itself (server/gateway/request-peer.ts); checked here so a typo stops the start. */
  SIGNPOST_TRUST_PROXY: trustProxySchema,
  /** Where people reach the console: approval links and emails point there (default: the printed URL). */
  SIGNPOST_PUBLIC_URL: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  /** Email for approvals and permission requests (server/gateway/mailer.ts); checked here for typos. */
  SIGNPOST_SMTP_URL: z.preprocess(emptyAsUndefined, smtpUrlSchema.optional()),
});

function say(line = ""): void {
  process.stdout.write(`${line}\n`);
}

function fail(message: string): never {
  process.stderr.write(`signpost: ${message}\n`);
  process.exit(1);
}

// ---- build -------------------------------------------------------------------------------

const BUILD_INPUTS = ["app", "components", "mcp", "server", "public"];
const BUILD_FILES = [
  "next.config.ts",
  "package.json",
  "package-lock.json",
  "postcss.config.mjs",
  "tsconfig.json",
];

/** A digest of everything `next build` reads: content, not mtimes, so a fresh clone or a
 * reinstall that regenerates identical files does not force a rebuild. */
function sourceDigest(): string {
  const hash = createHash("sha256");
  const files: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path === join(root, "server", "legacy")) continue; // a separate process, not bundled
        walk(path);
      } else if (entry.isFile()) files.push(path);
    }
  };
  for (const dir of BUILD_INPUTS) walk(join(root, dir));
  for (const file of BUILD_FILES) if (existsSync(join(root, file))) files.push(join(root, file));
  for (const file of files.sort()) {
    hash.update(relative(root, file));
    hash.update("\0");
    hash.update(readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex");
}

const digestFile = join(root, ".next", "signpost-source-digest");

function isBuildCurrent(digest: string): boolean {
  return (
    existsSync(join(root, ".next", "BUILD_ID")) &&
    existsSync(digestFile) &&
    readFileSync(digestFile, "utf8").trim() === digest
  );
}

// Two instances started together on a fresh checkout would both build into the one .next/
// (Next refuses the second build). One builds; the others wait for it, then reuse its output.
// The lock lives outside .next/, which `next build` wipes.
const buildLock = join(root, "node_modules", ".cache", "signpost-build.lock");

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function tryLock(): boolean {
  mkdirSync(dirname(buildLock), { recursive: true });
  try {
    writeFileSync(buildLock, String(process.pid), { flag: "wx" });
    return true;
  } catch {
    const holder = Number(readFileSync(buildLock, "utf8"));
    if (holder && processAlive(holder)) return false;
    rmSync(buildLock, { force: true }); // left by a build that died
    return tryLock();
  }
}

async function buildIfNeeded(): Promise<void> {
  const digest = sourceDigest();
  if (isBuildCurrent(digest)) return;
  let waited = false;
  while (!tryLock()) {
    if (!waited) say("Another start is building the console; waiting for it…");
    waited = true;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  try {
    if (isBuildCurrent(digest)) return;
    const built = existsSync(join(root, ".next", "BUILD_ID"));
    say(
      built
        ? "Sources changed since the last build: rebuilding the console…"
        : "Building the console (once)…",
    );
    const started = Date.now();
    const result = spawnSync(process.execPath, [require.resolve("next/dist/bin/next"), "build"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (result.status !== 0) fail("next build failed");
    writeFileSync(digestFile, `${digest}\n`);
    say(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    rmSync(buildLock, { force: true });
  }
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

function stopChild(child: ChildProcess | undefined, graceMs = 10_000): Promise<void> {
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
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    fail(
      `invalid configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n")}`,
    );
  }
  const env = parsed.data;
  if (env.PORT === env.LEGACY_PORT) fail("PORT and LEGACY_PORT must differ");
  const dataDir = resolve(env.SIGNPOST_DATA_DIR);
  const url = databaseUrl({ ...process.env, SIGNPOST_DATA_DIR: dataDir });
  // Children and in-process modules all see the same absolute locations.
  process.env.SIGNPOST_DATA_DIR = dataDir;
  process.env.DATABASE_URL = url;

  const started = Date.now();
  // After a `git pull` that changed the schema, the generated clients (not committed) are stale.
  const generate = spawnSync(process.execPath, [join(root, "scripts/generate-clients.mjs"), "--if-stale"], {
    cwd: root,
    stdio: "inherit",
  });
  if (generate.status !== 0) fail("prisma generate failed");
  if (!dev && env.SIGNPOST_SKIP_BUILD === "0") await buildIfNeeded();

  // From here on everything written (the database and its -wal/-shm, which SQLite creates itself,
  // the legacy store, keys, demo.json) is owner-only, in this process and the children it starts.
  // After the build: .next/ is not data and keeps the usual modes.
  process.umask(PRIVATE_UMASK);
  const tightened = tightenDataDir(dataDir);
  const mode = (bits: number) => bits.toString(8).padStart(4, "0");
  if (tightened.length > 0) {
    say(
      `Tightened the data directory to owner-only: ${tightened
        .map((t) => `${relative(dirname(dataDir), t.path)} ${mode(t.from)} → ${mode(t.to)}`)
        .join(", ")}`,
    );
  }
  say(`Database: ${providerOf(url) === "sqlite" ? url.replace(/^file:/, "") : "PostgreSQL (DATABASE_URL)"}`);
  await migrateDeploy(url);
  masterKey(); // creates <data dir>/master.key on first start when SIGNPOST_MASTER_KEY is not set

  const legacyKeys = loadOrCreateLegacyKeys(dataDir);
  const legacyUrl = `http://127.0.0.1:${env.LEGACY_PORT}`;
  const consoleUrl = `http://${env.HOST === "0.0.0.0" ? "127.0.0.1" : env.HOST}:${env.PORT}`;

  const children: ChildProcess[] = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.all(children.map((child) => stopChild(child)));
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  const watch = (name: string, child: ChildProcess) => {
    children.push(child);
    child.on("exit", (code, signal) => {
      if (stopping) return;
      process.stderr.write(
        `signpost: ${name} stopped unexpectedly (${signal ?? `exit ${code}`}); shutting down\n`,
      );
      void shutdown(1);
    });
  };

  const legacy = spawn(
    process.execPath,
    ["--import", pathToFileURL(require.resolve("tsx")).href, join(root, "server/legacy/main.ts")],
    {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
      env: {
        ...process.env,
        LEGACY_PORT: String(env.LEGACY_PORT),
        LEGACY_HOST: "127.0.0.1",
        LEGACY_DB: join(dataDir, "legacy.sqlite"),
        LEGACY_API_KEYS: JSON.stringify(legacyKeys.apiKeys),
        LEGACY_ADMIN_KEY: legacyKeys.adminKey,
        LEGACY_LOG: env.LEGACY_LOG,
      },
    },
  );
  watch("the legacy service", legacy);
  try {
    await waitFor(`${legacyUrl}/health`, 30_000, legacy);
  } catch (error) {
    process.stderr.write(`signpost: legacy service failed to start: ${String(error)}\n`);
    return shutdown(1);
  }

  const db = createDb(url);
  let demo: DemoInfo | null;
  try {
    const seeded = await seedDemo(db, {
      legacyUrl,
      legacyApiKeys: legacyKeys.apiKeys,
      password: env.SIGNPOST_DEMO_PASSWORD,
    });
    if (seeded) {
      say("Seeded the demo data (first start).");
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

  const next = spawn(
    process.execPath,
    [
      require.resolve("next/dist/bin/next"),
      dev ? "dev" : "start",
      "--port",
      String(env.PORT),
      "--hostname",
      env.HOST,
    ],
    {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
      env: {
        ...process.env,
        PORT: String(env.PORT),
        SIGNPOST_LEGACY_URL: legacyUrl,
        LEGACY_PORT: String(env.LEGACY_PORT),
        // Links given to agents and sent by email open the console where it was printed (not a
        // "localhost" the person is not signed in at), unless SIGNPOST_PUBLIC_URL says otherwise.
        SIGNPOST_PUBLIC_URL: env.SIGNPOST_PUBLIC_URL ?? consoleUrl,
        NODE_ENV: dev ? "development" : "production",
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
  );
  watch("Next.js", next);
  try {
    await waitFor(`${consoleUrl}/api/health`, dev ? 180_000 : 60_000, next);
  } catch (error) {
    process.stderr.write(`signpost: the console did not become healthy: ${String(error)}\n`);
    return shutdown(1);
  }

  say();
  say(`Signpost is running (ready in ${((Date.now() - started) / 1000).toFixed(1)} s).`);
  say(`  Console         ${consoleUrl}`);
  say(`  MCP endpoint    ${consoleUrl}/mcp`);
  say(`  Health          ${consoleUrl}/api/health`);
  say(`  Legacy service  ${legacyUrl}  (OpenAPI: ${legacyUrl}/openapi.json)`);
  if (demo) {
    say("  Demo logins:");
    for (const login of demo.logins)
      say(`    ${login.email.padEnd(18)} ${login.password.padEnd(20)} ${login.role} @ ${login.tenant}`);
    const agent = demo.agents.find((a) => a.user === "alice@acme.test") ?? demo.agents[0];
    if (agent) say(`  Agent key (${agent.name}): ${agent.key}`);
  } else {
    say(
      "  (demo.json is missing: logins and keys were printed at the first start; `npx signpost mint-key` makes new keys)",
    );
  }
  say(`  Everything above is in ${join(dataDir, "demo.json")} (mode 0600; the data directory is 0700).`);
  say("  Stop with Ctrl-C.");
  say();
}

main().catch((error) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)));
