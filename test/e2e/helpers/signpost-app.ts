import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type DemoInfo, demoInfoSchema, legacyKeysSchema } from "@/scripts/demo-files";
import { copyMigratedSqlite } from "@/sdk-testing/test-database";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const require = createRequire(import.meta.url);

export type SignpostApp = {
  url: string;
  dataDir: string;
  databaseUrl: string;
  masterKey: string;
  password: string;
  demo: DemoInfo;
  legacy: { url: string; adminKey: string; apiKeys: { acme: string; globex: string } };
  /** Everything the app printed (for failure messages). */
  log(): string;
  stop(): Promise<void>;
};

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/**
 * Starts Signpost exactly as `npm start` does (scripts/start.ts: build if the sources changed,
 * migrate, seed the demo, legacy service + `next start` as children) on random ports with a
 * fresh data directory, a known master key and one known demo password.
 */
export async function startSignpostApp(
  options: {
    timeoutMs?: number;
    /** PostgreSQL instead of the embedded SQLite file (the caller creates and drops it). */
    databaseUrl?: string;
    /** More environment for the app (e.g. SIGNPOST_TRUST_PROXY), over the defaults below. */
    env?: Record<string, string>;
    /** Set SIGNPOST_PUBLIC_URL to the app's own URL (links and OAuth issuer on the origin the browser uses). */
    ownPublicUrl?: boolean;
  } = {},
): Promise<SignpostApp> {
  const dataDir = mkdtempSync(join(tmpdir(), "signpost-e2e-"));
  // The embedded database starts migrated (a copy of the test template): what a first start
  // migrates is test/start/start.test.ts's to check; here it was a Prisma CLI run per app.
  if (!options.databaseUrl) await copyMigratedSqlite(join(dataDir, "signpost.db"));
  const [port, legacyPort] = [await freePort(), await freePort()];
  const masterKey = randomBytes(32).toString("hex");
  const password = `e2e-${randomBytes(6).toString("hex")}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Unset: the embedded SQLite file in the temp data dir (spawn drops undefined).
    DATABASE_URL: options.databaseUrl,
    PORT: String(port),
    LEGACY_PORT: String(legacyPort),
    HOST: "127.0.0.1",
    SIGNPOST_DATA_DIR: dataDir,
    SIGNPOST_MASTER_KEY: masterKey,
    SIGNPOST_DEMO_PASSWORD: password,
    NEXT_TELEMETRY_DISABLED: "1",
    // The suite runs at warn (vitest.config.ts); readiness is the info line "Signpost is running".
    LOG_LEVEL: "info",
    // The background reconcile job verifies unknown effects on its own (every 30 s by default);
    // tests that show a person the recovery queue must find the effect still unknown there.
    // Jobs still run once at start; a test about the jobs passes its own interval.
    SIGNPOST_JOBS_INTERVAL_S: "86400",
    // A monitor row that shows up at all then came by a wake-up (this process's write or
    // PostgreSQL NOTIFY), not by the safety poll: the push path is proved without timing it.
    SIGNPOST_MONITOR_POLL_MS: "60000",
    // Local iteration: reuse whatever .next holds instead of letting start.ts rebuild.
    ...(process.env.SIGNPOST_E2E_REUSE_BUILD === "1" ? { SIGNPOST_SKIP_BUILD: "1" } : {}),
    ...(options.ownPublicUrl ? { SIGNPOST_PUBLIC_URL: `http://127.0.0.1:${port}` } : {}),
    ...options.env,
  };
  let output = "";
  // Its own process group: stop() ends start.ts and the two children it runs, and nothing else.
  const child = spawn(
    process.execPath,
    ["--import", pathToFileURL(require.resolve("tsx")).href, join(root, "scripts/start.ts")],
    {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  child.stdout?.on("data", (d) => {
    output += String(d);
  });
  child.stderr?.on("data", (d) => {
    output += String(d);
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
      const timer = setTimeout(() => {
        try {
          if (child.pid) process.kill(-child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }, 15_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  while (!output.includes("Signpost is running")) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`npm start exited with ${child.exitCode}:\n${output.slice(-4000)}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`npm start did not get ready in time:\n${output.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const demo = demoInfoSchema.parse(JSON.parse(readFileSync(join(dataDir, "demo.json"), "utf8")));
  const legacyKeys = legacyKeysSchema.parse(JSON.parse(readFileSync(join(dataDir, "legacy.json"), "utf8")));
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    databaseUrl: options.databaseUrl ?? `file:${join(dataDir, "signpost.db")}`,
    masterKey,
    password,
    demo,
    legacy: { url: demo.legacy.url, adminKey: demo.legacy.adminKey, apiKeys: legacyKeys.apiKeys },
    log: () => output,
    stop,
  };
}
