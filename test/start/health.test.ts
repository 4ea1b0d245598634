import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDb, type Db } from "@/server/db/client";
import { logger } from "@/server/logger";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/database";
import { type RunningLegacy, startLegacy } from "@/test/helpers/legacy-server";

// Protects /api/health: 200 only when the database answers AND the legacy service answers;
// 503 with the failing part named otherwise (load balancers and `npm start` rely on it).

describe("/api/health", () => {
  let database: TestDatabase;
  let legacy: RunningLegacy;
  let GET: () => Promise<Response>;
  const saved = { db: process.env.DATABASE_URL, legacy: process.env.SIGNPOST_LEGACY_URL };
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    legacy = await startLegacy();
    process.env.DATABASE_URL = database.url;
    process.env.SIGNPOST_LEGACY_URL = legacy.url;
    ({ GET } = await import("@/app/api/health/route"));
  });
  afterAll(async () => {
    for (const [name, value] of [
      ["DATABASE_URL", saved.db],
      ["SIGNPOST_LEGACY_URL", saved.legacy],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await legacy?.stop();
    await database?.drop();
  });

  it("is green when the database and the legacy service answer", async () => {
    const response = await GET();
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      ok: true,
      database: { ok: true, provider: "sqlite" },
      legacy: { ok: true },
    });
  });

  it("answers 503 naming the legacy service when it is down", async () => {
    process.env.SIGNPOST_LEGACY_URL = "http://127.0.0.1:9"; // discard port: nothing listens
    try {
      const response = await GET();
      expect(response.status).toBe(503);
      const body = await response.json();
      expect(body).toMatchObject({ ok: false, database: { ok: true }, legacy: { ok: false } });
      // Unauthenticated: the part that failed, never its address or the reason (that is logged).
      expect(JSON.stringify(body)).not.toContain("127.0.0.1");
      expect(body.legacy.error).toBeUndefined();
    } finally {
      process.env.SIGNPOST_LEGACY_URL = legacy.url;
    }
  });

  it("answers 503 naming the database when it is unreachable, without leaking its URL", async () => {
    // A real client on a PostgreSQL URL where nothing listens (discard port), swapped in as the
    // process's database the way a lost database server looks to a running instance.
    const unreachable = "postgresql://signpost:s3cret-password@127.0.0.1:9/signpost";
    const holder = globalThis as typeof globalThis & { __signpostDb?: Db };
    const previous = holder.__signpostDb;
    const dead = createDb(unreachable);
    holder.__signpostDb = dead;
    process.env.DATABASE_URL = unreachable;
    const errors = vi.spyOn(logger, "warn");
    try {
      const response = await GET();
      expect(response.status).toBe(503);
      const text = await response.text();
      expect(text).not.toContain("s3cret-password");
      const body = JSON.parse(text);
      expect(body).toMatchObject({
        ok: false,
        database: { ok: false, provider: "postgres" },
        legacy: { ok: true },
      });
      expect(body.database.error).toBeUndefined();
      // The reason went to the log, without the password either.
      const logged = JSON.stringify(errors.mock.calls);
      expect(logged).toContain("database check failed");
      expect(logged).not.toContain("s3cret-password");
    } finally {
      errors.mockRestore();
      holder.__signpostDb = previous;
      process.env.DATABASE_URL = database.url;
      await dead.$disconnect().catch(() => undefined);
    }
    // Back on the real database: green again.
    expect((await GET()).status).toBe(200);
  });
});
