import { type ChildProcess, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "@/server/db/client";
import { providerOf } from "@/server/db/database-url";
import { verifyPassword } from "@/server/gateway/passwords";
import { readSecret } from "@/server/gateway/vault";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/database";

// Protects the "Done when" of the foundation: `npm start` on a fresh data directory builds (if
// needed), migrates, seeds, runs the legacy service and the console, reports green health, writes
// demo.json (0600) with working credentials, stops cleanly on SIGTERM, and a second start keeps
// the data and the keys. Runs on SQLite by default; on PostgreSQL when DATABASE_URL says so.

const root = fileURLToPath(new URL("../..", import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

type Running = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/**
 * `npm start` itself, as a person or a container runs it (`--silent`: without npm's banner every
 * line is ours), so the signals below go to npm: what `docker stop` or systemd sends.
 */
function start(env: Record<string, string>): Running {
  const chunks: string[] = [];
  const child = spawn("npm", ["start", "--silent"], {
    cwd: root,
    // Readiness is the info line "Signpost is running"; the suite itself runs at warn.
    env: { ...process.env, DATABASE_URL: "", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, as a shell gives a command it runs: Ctrl-C signals that group.
    detached: true,
  });
  child.stdout?.on("data", (c: Buffer) => chunks.push(c.toString()));
  child.stderr?.on("data", (c: Buffer) => chunks.push(c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => chunks.join(""), exited };
}

async function untilReady(run: Running, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (run.child.exitCode !== null) throw new Error(`start exited early:\n${run.output()}`);
    if (run.output().includes("Signpost is running")) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`start not ready in time:\n${run.output()}`);
}

/**
 * `SIGTERM` to npm (a container's or systemd's stop), or Ctrl-C at a terminal: `SIGINT` to the
 * whole foreground process group at once (npm was started as its group's leader for this).
 */
async function stop(run: Running, how: "SIGTERM" | "Ctrl-C" = "SIGTERM"): Promise<number | null> {
  if (how === "SIGTERM") run.child.kill("SIGTERM");
  else process.kill(-(run.child.pid as number), "SIGINT");
  const timeout = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 30_000));
  const result = await Promise.race([run.exited, timeout]);
  if (result === "timeout") {
    process.kill(-(run.child.pid as number), "SIGKILL");
    throw new Error(`start did not stop within 30 s of ${how}`);
  }
  return result;
}

/**
 * After a stop: every line was JSON; Signpost stopped before the legacy service it calls, and
 * start.ts last (each says so); nothing is left running: neither port answers, and start.ts
 * (npm's child: no shell in between) and Signpost (its child) are gone, not reparented.
 */
async function expectStoppedInOrder(run: Running, consoleUrl: string, legacyUrl: string): Promise<void> {
  await expect(fetch(`${consoleUrl}/api/health`)).rejects.toThrow();
  await expect(fetch(`${legacyUrl}/health`)).rejects.toThrow();
  const lines = run
    .output()
    .split("\n")
    .filter((line) => line.trim());
  for (const line of lines) expect(() => JSON.parse(line), line.slice(0, 200)).not.toThrow();
  const parsed = lines.map((line) => JSON.parse(line));
  const order = parsed
    .filter((l) => l.event === "shutdown" || l.event === "stopped")
    .map((l) => `${l.svc}:${l.event}`);
  expect(order).toEqual([
    "signpost:shutdown",
    "signpost:shutdown",
    "signpost:stopped",
    "legacy:stopped",
    "signpost:stopped",
  ]);
  const pids = parsed
    .filter((l) => l.event === "ready" || l.event === "listening")
    .map((l) => l.pid as number);
  expect(pids).toHaveLength(2);
  expect(pids).not.toContain(run.child.pid);
  for (const pid of pids) expect(() => process.kill(pid, 0), `process ${pid} still runs`).toThrow();
}

type Demo = {
  consoleUrl: string;
  agents: Array<{ user: string; key: string }>;
  legacy: { url: string; adminKey: string };
};

/** Holds an agent's call in flight (its legacy read delayed 3 s), stops, and checks that it got its answer. */
async function stopDuringCall(run: Running, demo: Demo, how: "SIGTERM" | "Ctrl-C"): Promise<void> {
  const alice = demo.agents.find((agent) => agent.user === "alice@acme.test");
  await fetch(`${demo.legacy.url}/admin/faults`, {
    method: "POST",
    headers: { "x-admin-key": demo.legacy.adminKey, "content-type": "application/json" },
    body: JSON.stringify({ match: "GET /v1/orders/*", mode: "latency", latency_ms: 3000, count: 1 }),
  });
  const inFlight = fetch(`${demo.consoleUrl}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${alice?.key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "get_context", arguments: { entity: "order", entity_id: "ord_paid" } },
    }),
  });
  // The fault is used up once the call's legacy read holds it.
  for (;;) {
    const held = await fetch(`${demo.legacy.url}/admin/faults`, {
      headers: { "x-admin-key": demo.legacy.adminKey },
    });
    if (((await held.json()) as { data: unknown[] }).data.length === 0) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const stopped = stop(run, how);
  const answer = await inFlight;
  expect(answer.status).toBe(200);
  expect(await answer.text()).toContain('"outcome":"applied"');
  expect(await stopped).toBe(0);
}

const postgresUrl = process.env.DATABASE_URL && providerOf(process.env.DATABASE_URL) === "postgres";

/**
 * Issue 8: the data directory holds the database, the master key, the legacy store (tenant keys in
 * plain text) and demo.json. While Signpost runs, the folder is 0700 and everything in it 0600,
 * including the -wal/-shm files SQLite creates by itself.
 */
function expectOwnerOnly(dir: string): void {
  expect((statSync(dir).mode & 0o777).toString(8), dir).toBe("700");
  const names = readdirSync(dir);
  const expected = [
    "master.key",
    "demo.json",
    "legacy.json",
    "legacy.sqlite",
    "legacy.sqlite-wal",
    "legacy.sqlite-shm",
  ];
  if (!postgresUrl) expected.push("signpost.db", "signpost.db-wal", "signpost.db-shm");
  expect(names).toEqual(expect.arrayContaining(expected));
  for (const name of names) {
    expect((statSync(join(dir, name)).mode & 0o777).toString(8), name).toBe("600");
  }
}

describe(`npm start (${postgresUrl ? "postgres" : "sqlite"})`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "signpost-start-"));
  let database: TestDatabase | undefined;
  const running: Running[] = [];
  afterAll(async () => {
    for (const run of running)
      if (run.child.exitCode === null) {
        try {
          process.kill(-(run.child.pid as number), "SIGKILL");
        } catch {
          // already gone
        }
      }
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts, is healthy, stops cleanly, and keeps its data across a restart", async () => {
    const env: Record<string, string> = {
      SIGNPOST_DATA_DIR: dataDir,
      PORT: String(await freePort()),
      LEGACY_PORT: String(await freePort()),
      SIGNPOST_MASTER_KEY: "",
    };
    if (postgresUrl) {
      database = await createTestDatabase("postgres");
      await database.db.$disconnect();
      env.DATABASE_URL = database.url;
    }
    // A folder that already existed with the usual loose modes, holding a stray file.
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, "notes.txt"), "kept, but private\n", { mode: 0o644 });
    chmodSync(join(dataDir, "notes.txt"), 0o644);
    const first = start(env);
    running.push(first);
    // The first run may have to build the console (one `next build` per test run at most).
    await untilReady(first, 540_000);

    const health = await fetch(`http://127.0.0.1:${env.PORT}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, database: { ok: true }, legacy: { ok: true } });
    expectOwnerOnly(dataDir);
    expect(first.output()).toMatch(
      /Tightened the data directory to owner-only: \S+ 0755 → 0700, .*notes\.txt 0644 → 0600/,
    );

    const demoPath = join(dataDir, "demo.json");
    expect(statSync(demoPath).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, "master.key")).mode & 0o777).toBe(0o600);
    const demo = JSON.parse(readFileSync(demoPath, "utf8"));
    expect(demo.consoleUrl).toBe(`http://127.0.0.1:${env.PORT}`);
    expect(demo.logins.map((l: { email: string }) => l.email)).toEqual([
      "alice@acme.test",
      "adam@acme.test",
      "sam@acme.test",
      "gina@globex.test",
    ]);
    // Not on a terminal: the output is JSON log lines, which name demo.json but never carry
    // the passwords or agent keys themselves (a log is not a place for credentials).
    expect(first.output()).toContain(demoPath);
    // The very first line already says where they will be (before a build of a minute or two).
    const firstLine = JSON.parse(first.output().split("\n")[0] as string);
    expect(firstLine).toMatchObject({ event: "starting", demo_file: demoPath });
    expect(firstLine.msg).toContain(`demo logins and agent keys are in ${demoPath}`);
    expect(first.output()).not.toContain(demo.agents[0].key);
    expect(first.output()).not.toContain(demo.logins[0].password);
    // The legacy admin key in demo.json works against the running legacy service.
    const faults = await fetch(`${demo.legacy.url}/admin/faults`, {
      headers: { "x-admin-key": demo.legacy.adminKey },
    });
    expect(faults.status).toBe(200);

    // SIGTERM to npm while an agent's call is in flight (its legacy read held 3 s): the call
    // still gets its answer, then Signpost and the legacy service stop, in that order, and
    // npm start exits 0.
    await stopDuringCall(first, demo, "SIGTERM");
    await expectStoppedInOrder(first, `http://127.0.0.1:${env.PORT}`, demo.legacy.url);

    // While stopped: check what was stored, and leave a mark the second start must keep.
    const url = env.DATABASE_URL || `file:${join(dataDir, "signpost.db")}`;
    const db = createDb(url);
    const savedEnv = { dir: process.env.SIGNPOST_DATA_DIR, key: process.env.SIGNPOST_MASTER_KEY };
    process.env.SIGNPOST_DATA_DIR = dataDir;
    delete process.env.SIGNPOST_MASTER_KEY;
    try {
      const alice = await db.user.findUniqueOrThrow({ where: { email: "alice@acme.test" } });
      expect(await verifyPassword(demo.logins[0].password, alice.passwordHash)).toBe(true);
      const legacyKeys = JSON.parse(readFileSync(join(dataDir, "legacy.json"), "utf8"));
      expect(await readSecret(db, { tenantId: "acme", connector: "shop", name: "api_key" })).toBe(
        legacyKeys.apiKeys.acme,
      );
      await db.tenant.create({ data: { id: "initech", name: "Initech" } });
    } finally {
      process.env.SIGNPOST_DATA_DIR = savedEnv.dir;
      if (savedEnv.key !== undefined) process.env.SIGNPOST_MASTER_KEY = savedEnv.key;
      await db.$disconnect();
    }

    // Loosened while stopped (a restore from backup, a careless chmod): the next start tightens again.
    chmodSync(dataDir, 0o750);
    chmodSync(join(dataDir, "legacy.sqlite"), 0o644);
    const second = start(env);
    running.push(second);
    await untilReady(second, 120_000);
    expectOwnerOnly(dataDir);
    expect(second.output()).toMatch(
      /Tightened the data directory to owner-only: .*0750 → 0700.*legacy\.sqlite 0644 → 0600/,
    );
    expect(second.output()).not.toContain("Building the console");
    expect(second.output()).not.toContain("Seeded the demo data");
    const again = await fetch(`http://127.0.0.1:${env.PORT}/api/health`);
    expect(again.status).toBe(200);
    const demoAgain = JSON.parse(readFileSync(demoPath, "utf8"));
    expect(demoAgain.agents).toEqual(demo.agents);
    expect(demoAgain.legacy).toEqual(demo.legacy);
    // Same legacy keys: the vault's copy still opens the legacy API.
    const legacyKeys = JSON.parse(readFileSync(join(dataDir, "legacy.json"), "utf8"));
    const legacyHealth = await fetch(`${demo.legacy.url}/v1/health`, {
      headers: { authorization: `Bearer ${legacyKeys.apiKeys.acme}` },
    });
    expect(legacyHealth.status).toBe(200);
    // Ctrl-C this time, with a call in flight: the same order, though every process of the
    // group got the SIGINT at once.
    await stopDuringCall(second, demo, "Ctrl-C");
    await expectStoppedInOrder(second, `http://127.0.0.1:${env.PORT}`, demo.legacy.url);

    const check = createDb(url);
    try {
      expect(await check.tenant.findUnique({ where: { id: "initech" } })).not.toBeNull();
      expect(await check.user.count()).toBe(4);
    } finally {
      await check.$disconnect();
    }
    expect(existsSync(join(dataDir, "legacy.sqlite"))).toBe(true);
  }, 900_000);
});
