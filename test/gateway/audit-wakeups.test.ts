import { type ChildProcess, spawn } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/server/db/client";
import { preparedStatements } from "@/server/db/prepared-statements";
import {
  AUDIT_CHANNEL,
  type AuditWakeReason,
  DEFAULT_SAFETY_POLL_MS,
  openAuditWakeups,
  safetyPollFromEnv,
} from "@/server/gateway/audit-wakeups";
import { recordAuditEvent } from "@/server/gateway/record-audit-event";
import { createTestDatabase, postgresSkipReason, type TestDatabase } from "../helpers/database";

const now = () => performance.timeOrigin + performance.now();
const writer = (tenantId: string) => ({ tenantId, userId: "writer", face: "system" as const });
const row = (operation: string) => ({ operation, outcome: "applied", latencyMs: 0 });

/** Starts the writer fixture in its own process and waits until it is connected. */
async function startChildWriter(url: string, tenantId: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "test/gateway/fixtures/write-audit-in-child.ts"],
    { env: { ...process.env, DATABASE_URL: url, TENANT_ID: tenantId }, stdio: ["pipe", "pipe", "inherit"] },
  );
  let out = "";
  const lines: string[] = [];
  let onLine: (() => void) | null = null;
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    const parts = out.split("\n");
    out = parts.pop() ?? "";
    lines.push(...parts.filter(Boolean));
    onLine?.();
  });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = lines.shift();
        if (line !== undefined) {
          onLine = null;
          resolve(line);
        }
      };
      onLine = check;
      child.once("exit", () => reject(new Error("writer exited early")));
      check();
    });
  expect(await nextLine()).toBe("ready");
  return {
    /** Tells the child to write; answers the row's seq and when the child started the insert. */
    async write(): Promise<{ seq: number; startedAt: number }> {
      child.stdin?.write("write\n");
      return JSON.parse(await nextLine());
    },
    kill: () => child.stdin?.end(),
  };
}

describe("audit wake-ups: in-process", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    await recordAuditEvent(database.db, writer("acme"), row("test.warm_up")); // not timed: first query opens the file
  });
  afterAll(async () => {
    await database.drop();
  });

  it("wakes a waiting stream at once when this process writes a row for its tenant", async () => {
    const wakeups = openAuditWakeups({ url: database.url, tenantId: "acme", safetyPollMs: 10_000 });
    try {
      const waiting = wakeups.next();
      const before = now();
      await recordAuditEvent(database.db, writer("acme"), row("test.local"));
      const reason = await waiting;
      const latency = now() - before;
      console.log(`[audit-wakeups] in-process wake: ${latency.toFixed(1)} ms (including the insert)`);
      expect(reason).toBe("local");
    } finally {
      wakeups.close();
    }
  });

  it("keeps a wake-up that came while the stream was busy, so the next wait returns at once", async () => {
    const wakeups = openAuditWakeups({ url: database.url, tenantId: "acme", safetyPollMs: 10_000 });
    try {
      await recordAuditEvent(database.db, writer("acme"), row("test.while_reading"));
      expect(await wakeups.next()).toBe("local");
    } finally {
      wakeups.close();
    }
  });

  it("ignores another tenant's rows (they would only cost a read) and falls back to the safety poll", async () => {
    const wakeups = openAuditWakeups({ url: database.url, tenantId: "acme", safetyPollMs: 300 });
    try {
      const waiting = wakeups.next();
      await recordAuditEvent(database.db, writer("globex"), row("test.other_tenant"));
      expect(await waiting).toBe("poll");
    } finally {
      wakeups.close();
    }
  });

  it("takes the safety poll from SIGNPOST_MONITOR_POLL_MS, ignoring values that are not whole milliseconds ≥ 100", () => {
    expect(safetyPollFromEnv(undefined)).toBe(DEFAULT_SAFETY_POLL_MS);
    expect(safetyPollFromEnv("60000")).toBe(60_000);
    expect(safetyPollFromEnv("100")).toBe(100);
    for (const bad of ["", "0", "99", "-5", "1e3", "2s", " 500"])
      expect(safetyPollFromEnv(bad)).toBe(DEFAULT_SAFETY_POLL_MS);
  });

  it("answers an aborted wait and a closed doorbell with 'aborted'", async () => {
    const wakeups = openAuditWakeups({ url: database.url, safetyPollMs: 10_000 });
    const controller = new AbortController();
    const waiting = wakeups.next(controller.signal);
    controller.abort();
    expect(await waiting).toBe("aborted");
    const again = wakeups.next();
    wakeups.close();
    expect(await again).toBe("aborted");
  });

  it("SQLite: the safety poll finds a row another process wrote (no notification exists there)", async () => {
    const child = await startChildWriter(database.url, "acme");
    const wakeups = openAuditWakeups({ url: database.url, tenantId: "acme", safetyPollMs: 400 });
    try {
      const cursor = (await database.db.auditEvent.aggregate({ _max: { seq: true } }))._max.seq ?? 0;
      const waiting = wakeups.next();
      const { seq } = await child.write();
      const reason: AuditWakeReason = await waiting;
      expect(reason).toBe("poll");
      const fresh = await database.db.auditEvent.findMany({ where: { seq: { gt: cursor } } });
      expect(fresh.map((e) => e.seq)).toEqual([seq]);
      expect(fresh[0]?.operation).toBe("test.written_elsewhere");
    } finally {
      wakeups.close();
      child.kill();
    }
  }, 30_000);
});

// Skipped (and counted at the end of the run) when PostgreSQL cannot run here.
const pgReachable = postgresSkipReason() === null;

describe.skipIf(!pgReachable)("audit wake-ups: PostgreSQL LISTEN/NOTIFY across instances", () => {
  let database: TestDatabase;
  let other: Db;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    other = createDb(database.url); // a second "instance": its own client and connection pool
    await Promise.all([other.auditEvent.count(), database.db.auditEvent.count()]); // connect before timing
  });
  afterAll(async () => {
    await other?.$disconnect();
    await database?.drop();
  });

  /** Waits until the shared LISTEN connection is up (it wakes every stream once it is). */
  async function listening(wakeups: ReturnType<typeof openAuditWakeups>) {
    expect(await wakeups.next()).toBe("notify");
  }

  it("a row written and notified through one client wakes a listener opened for the other", async () => {
    const wakeups = openAuditWakeups({ url: database.url, tenantId: "acme", safetyPollMs: 10_000 });
    try {
      await listening(wakeups);
      const waiting = wakeups.next();
      const before = now();
      // Written without this process's event stream: only the database can carry the news (the
      // insert statement itself notifies, at its commit).
      const written = (
        await preparedStatements(other).insertAuditRows(
          [
            {
              tenantId: "acme",
              agentId: null,
              userId: null,
              face: "system",
              operation: "test.other_client",
              target: null,
              capability: null,
              arguments: {},
              decision: null,
              outcome: "applied",
              message: null,
              latencyMs: 0,
              actionId: null,
              actionKey: null,
              requestId: null,
            },
          ],
          AUDIT_CHANNEL,
        )
      )[0] as { seq: number };
      expect(await waiting).toBe("notify");
      const latency = now() - before;
      console.log(
        `[audit-wakeups] PostgreSQL wake, second client: ${latency.toFixed(1)} ms (insert with notify + delivery)`,
      );
      const seen = await database.db.auditEvent.findFirst({ where: { tenantId: "acme", seq: written.seq } });
      expect(seen?.operation).toBe("test.other_client");
    } finally {
      wakeups.close();
    }
  });

  it("a row written by another process through recordAuditEvent wakes this one by NOTIFY, not by the safety poll", async () => {
    const child = await startChildWriter(database.url, "acme");
    const wakeups = openAuditWakeups({ url: database.url, tenantId: "acme", safetyPollMs: 10_000 });
    try {
      await listening(wakeups);
      const latencies: number[] = [];
      for (let i = 0; i < 5; i++) {
        let wokenAt = 0;
        const waiting = wakeups.next().then((reason) => {
          wokenAt = now();
          return reason;
        });
        const { seq, startedAt } = await child.write();
        expect(await waiting).toBe("notify");
        latencies.push(wokenAt - startedAt);
        expect((await database.db.auditEvent.findFirst({ where: { tenantId: "acme", seq } }))?.tenantId).toBe(
          "acme",
        );
      }
      console.log(
        `[audit-wakeups] PostgreSQL wake, other process (child starts the insert → listener woken): ${latencies.map((l) => l.toFixed(1)).join(", ")} ms`,
      );
    } finally {
      wakeups.close();
      child.kill();
    }
  }, 30_000);

  it("reconnects the shared LISTEN connection after it is killed, and wakes streams on the way", async () => {
    const wakeups = openAuditWakeups({ url: database.url, safetyPollMs: 10_000 });
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await listening(wakeups);
      const killed = await admin.query(
        "SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN signpost_audit' AND pid <> pg_backend_pid()",
      );
      expect(killed.rowCount).toBe(1);
      // Notifications sent while it was down are gone: the reconnect itself wakes the stream.
      expect(await wakeups.next()).toBe("notify");
      const waiting = wakeups.next();
      await admin.query("SELECT pg_notify('signpost_audit', '999999')");
      expect(await waiting).toBe("notify");
    } finally {
      wakeups.close();
      await admin.end();
    }
  }, 15_000);

  it("one LISTEN connection per process, however many streams are open, closed with the last", async () => {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const listeners = async () =>
      Number(
        (
          await admin.query(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN signpost_audit'",
          )
        ).rows[0].n,
      );
    const streams = [1, 2, 3].map(() => openAuditWakeups({ url: database.url, safetyPollMs: 10_000 }));
    try {
      for (const s of streams) await listening(s);
      expect(await listeners()).toBe(1);
      for (const s of streams) s.close();
      const deadline = Date.now() + 3_000;
      while ((await listeners()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await listeners()).toBe(0);
    } finally {
      for (const s of streams) s.close();
      await admin.end();
    }
  });
});
