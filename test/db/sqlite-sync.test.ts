import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@/server/db/client";
import { createTestDatabase, type TestDatabase } from "../helpers/database";

// SIGNPOST_SQLITE_SYNC: commits survive a killed process (normal, the default) or also a power loss
// (full, an fsync per commit); the setting must reach the connection the app's queries run on.
describe("SQLite synchronous setting", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    delete process.env.SIGNPOST_SQLITE_SYNC;
    await database.drop();
  });

  const synchronousOf = async () => {
    const db = createDb(database.url, { trace: false });
    try {
      const rows = await db.$queryRawUnsafe<Array<{ synchronous: bigint | number }>>("PRAGMA synchronous");
      return Number(rows[0]?.synchronous);
    } finally {
      await db.$disconnect();
    }
  };

  it("is NORMAL (1) by default, set on the connection (not left to how SQLite was built)", async () => {
    delete process.env.SIGNPOST_SQLITE_SYNC;
    expect(await synchronousOf()).toBe(1);
  });

  it("is FULL (2) on the app's connection when SIGNPOST_SQLITE_SYNC=full", async () => {
    process.env.SIGNPOST_SQLITE_SYNC = "full";
    expect(await synchronousOf()).toBe(2);
  });
});
