import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createDb, type Db } from "../server/db/client";
import type { DbProvider } from "../server/db/database-url";
import { applyMigrationsDirect, listMigrations } from "../server/db/migrations";

// Throwaway, migrated databases for tests: Signpost's own suites and a connector author's
// (through the kit). No test runner here, so a company's project can use it as it is.

export type TestDatabase = { provider: DbProvider; url: string; db: Db; drop(): Promise<void> };

/** Where throwaway PostgreSQL databases are created (override with TEST_POSTGRES_URL). */
export const testPostgresAdminUrl =
  process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** Whether a PostgreSQL server answers at testPostgresAdminUrl (for scripts; tests use postgresSkipReason). */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: testPostgresAdminUrl, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The committed migrations of a provider, as one short digest: a template made from other
 * migrations (another branch, an edited migration) has another name and is never used.
 */
function migrationsDigest(provider: DbProvider): string {
  const hash = createHash("sha256");
  for (const m of listMigrations(provider)) hash.update(`${m.name}\0${m.checksum}\0`);
  return hash.digest("hex").slice(0, 16);
}

/**
 * A migrated SQLite file to copy: made once per set of migrations (by whichever test process
 * gets there first; written aside and renamed, so no process ever copies a half-made file).
 * Applying the migrations for real is what test/db/migrations.test.ts tests.
 */
async function sqliteTemplate(): Promise<string> {
  const dir = join(tmpdir(), "signpost-test-templates");
  const file = join(dir, `sqlite-${migrationsDigest("sqlite")}.db`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const scratch = join(dir, `making-${randomBytes(6).toString("hex")}.db`);
  await applyMigrationsDirect(`file:${scratch}`);
  // WAL files are folded in when the migrator closes: the one file is the whole database.
  renameSync(scratch, file);
  return file;
}

/**
 * A migrated PostgreSQL database to clone (`CREATE DATABASE … TEMPLATE`, a file copy: ~1 s
 * instead of creating and migrating, ~3 s on a busy machine). Made once per set of migrations,
 * under an advisory lock so that concurrent test processes make it once; made under a scratch
 * name and renamed when complete, so a clone never starts from a half-migrated template.
 */
async function postgresTemplate(): Promise<string> {
  const name = `signpost_template_${migrationsDigest("postgres")}`;
  const admin = new pg.Client({ connectionString: testPostgresAdminUrl });
  await admin.connect();
  try {
    const exists = async () =>
      (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
    if (await exists()) return name;
    await admin.query("SELECT pg_advisory_lock(hashtext('signpost_test_template'))");
    try {
      if (await exists()) return name;
      const scratch = `${name}_making_${randomBytes(4).toString("hex")}`;
      await admin.query(`CREATE DATABASE "${scratch}"`);
      const url = new URL(testPostgresAdminUrl);
      url.pathname = `/${scratch}`;
      await applyMigrationsDirect(url.toString());
      await admin.query(`ALTER DATABASE "${scratch}" RENAME TO "${name}"`);
      return name;
    } finally {
      await admin.query("SELECT pg_advisory_unlock(hashtext('signpost_test_template'))");
    }
  } finally {
    await admin.end();
  }
}

/**
 * Writes a migrated SQLite database to `file` (a copy of the template), for a test that starts a
 * whole Signpost on its own data directory: the start then finds nothing to migrate instead of
 * running Prisma's migrate deploy (a second Node process and its engine) each time: 44-47 s a start
 * instead of 60-64 s at load 19-22.
 */
export async function copyMigratedSqlite(file: string): Promise<void> {
  copyFileSync(await sqliteTemplate(), file);
}

/** A fresh, migrated, throwaway database; `drop()` disconnects and deletes it. */
export async function createTestDatabase(provider: DbProvider): Promise<TestDatabase> {
  if (provider === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "signpost-test-"));
    const url = `file:${join(dir, "test.db")}`;
    copyFileSync(await sqliteTemplate(), join(dir, "test.db"));
    const db = createDb(url);
    return {
      provider,
      url,
      db,
      async drop() {
        await db.$disconnect();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `signpost_test_${randomBytes(6).toString("hex")}`;
  const template = await postgresTemplate();
  const admin = new pg.Client({ connectionString: testPostgresAdminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(testPostgresAdminUrl);
  url.pathname = `/${name}`;
  const db = createDb(url.toString());
  return {
    provider,
    url: url.toString(),
    db,
    async drop() {
      await db.$disconnect();
      const client = new pg.Client({ connectionString: testPostgresAdminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
