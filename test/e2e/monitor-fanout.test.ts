import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, postgresSkipReason, type TestDatabase } from "../helpers/database";
import { freePort, type SignpostApp, startSignpostApp } from "./helpers/signpost-app";

const root = fileURLToPath(new URL("../..", import.meta.url));
const require = createRequire(import.meta.url);

// Skipped (and counted at the end of the run) when PostgreSQL cannot run here.
const pgReachable = postgresSkipReason() === null;

/**
 * DESIGN: "the live monitor fans out across instances through the database". Two Signpost
 * instances on one PostgreSQL database, as behind a load balancer: a row written through either
 * reaches a monitor stream open on the other. Both run with a 60 s safety poll, so a row that
 * arrives within the 10 s each sign-in is given came by NOTIFY. Latencies are printed, not
 * asserted: this machine is shared and noisy (`npm run bench` measures speed).
 */
describe.skipIf(!pgReachable)("live monitor across two instances on PostgreSQL", () => {
  let database: TestDatabase;
  let app: SignpostApp;
  let second: ChildProcess;
  let secondUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    app = await startSignpostApp({ databaseUrl: database.url });
    const port = await freePort();
    secondUrl = `http://127.0.0.1:${port}`;
    // The second instance: the same database, data dir and master key, its own Next.js process.
    second = spawn(
      process.execPath,
      [require.resolve("next/dist/bin/next"), "start", "--port", String(port), "--hostname", "127.0.0.1"],
      {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          SIGNPOST_DATA_DIR: app.dataDir,
          SIGNPOST_MASTER_KEY: app.masterKey,
          SIGNPOST_LEGACY_URL: app.legacy.url,
          // The demo's legacy service on loopback, allowed as npm start allows it for the first instance.
          SIGNPOST_EGRESS_ALLOW: new URL(app.legacy.url).host,
          NODE_ENV: "production",
          NEXT_TELEMETRY_DISABLED: "1",
          SIGNPOST_MONITOR_POLL_MS: "60000",
        },
        stdio: "ignore",
        detached: true,
      },
    );
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await fetch(`${secondUrl}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline || second.exitCode !== null) throw new Error("second instance did not start");
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 360_000);

  afterAll(async () => {
    if (second?.pid && second.exitCode === null) {
      const exited = new Promise((r) => second.once("exit", r));
      process.kill(-second.pid, "SIGTERM");
      await exited;
    }
    await app?.stop();
    await database?.drop();
  }, 60_000);

  async function signIn(baseUrl: string): Promise<string> {
    const res = await fetch(`${baseUrl}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl },
      body: JSON.stringify({ email: "sam@acme.test", password: app.password }),
    });
    expect(res.status).toBe(200);
    return (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  }

  /** Opens the monitor stream on `baseUrl`; `events` fills as rows arrive. */
  async function openStream(baseUrl: string, cookie: string) {
    const controller = new AbortController();
    const res = await fetch(`${baseUrl}/api/console/stream`, {
      headers: { cookie },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const events: { seq: number; operation: string; target: string | null }[] = [];
    // Called whenever rows arrive (a holder, so TypeScript sees the callback assigned later).
    const on: { change?: () => void } = {};
    let opened: () => void = () => undefined;
    const ready = new Promise<void>((r) => {
      opened = r;
    });
    void (async () => {
      const reader = res.body?.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for (;;) {
          const chunk = await reader?.read();
          if (!chunk || chunk.done) break;
          buffer += decoder.decode(chunk.value, { stream: true });
          if (buffer.includes(": resume from")) opened();
          let end = buffer.indexOf("\n\n");
          while (end >= 0) {
            const data = buffer
              .slice(0, end)
              .split("\n")
              .find((l) => l.startsWith("data: "));
            buffer = buffer.slice(end + 2);
            if (data) events.push(JSON.parse(data.slice(6)));
            end = buffer.indexOf("\n\n");
          }
          on.change?.();
        }
      } catch {
        // aborted
      }
    })();
    await ready;
    return {
      events,
      /** How long `write` took to show up here as a `session.signed_in` row; Infinity if it did not within 10 s. */
      async timeUntilSignInArrives(write: () => Promise<unknown>): Promise<number> {
        const from = events.length;
        const arrived = new Promise<void>((resolve) => {
          on.change = () => {
            if (events.slice(from).some((e) => e.operation === "session.signed_in")) resolve();
          };
        });
        const started = performance.now();
        await write();
        const came = await Promise.race([
          arrived.then(() => true),
          new Promise((r) => setTimeout(r, 10_000, false)),
        ]);
        return came ? performance.now() - started : Number.POSITIVE_INFINITY;
      },
      close: () => controller.abort(),
    };
  }

  it("a sign-in on one instance appears on the other instance's monitor stream by NOTIFY, both ways", async () => {
    const report: Record<string, number[]> = {};
    for (const [listen, write, label] of [
      [app.url, secondUrl, "second → first"],
      [secondUrl, app.url, "first → second"],
    ] as const) {
      const stream = await openStream(listen, await signIn(listen));
      try {
        // Past the stream's first read, so what follows can only come from a wake-up.
        await new Promise((r) => setTimeout(r, 500));
        const latencies: number[] = [];
        for (let i = 0; i < 4; i++) {
          latencies.push(await stream.timeUntilSignInArrives(() => signIn(write)));
          await new Promise((r) => setTimeout(r, 200 + Math.random() * 600));
        }
        report[label] = latencies.map(Math.round);
        // Every row exactly once, in seq order.
        const seqs = stream.events.map((e) => e.seq);
        expect(seqs).toEqual([...new Set(seqs)].sort((a, b) => a - b));
        // Finite: every sign-in arrived, long before the 60 s poll could have found it.
        expect(latencies.every(Number.isFinite)).toBe(true);
      } finally {
        stream.close();
      }
    }
    console.log(
      `[monitor-fanout] sign-in POST on one instance → row on the other's stream (ms): ${JSON.stringify(report)}`,
    );
  }, 60_000);
});
