import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { type DbProvider, providerOf, sqliteFile } from "./database-url";

/**
 * Where the database stands before anything opens it for real: whether it exists, and which of
 * the committed migrations it has. Read directly (better-sqlite3 read-only, one pg connection),
 * never through Prisma's schema engine, so it works while a server holds the SQLite file.
 */

/** The URL with its password masked, for messages. */
export function describeDatabase(url: string): string {
  if (providerOf(url) === "sqlite") return `SQLite file ${sqliteFile(url)}`;
  try {
    const u = new URL(url);
    return `PostgreSQL database "${decodeURIComponent(u.pathname.slice(1)) || "(default)"}" on ${u.host}`;
  } catch {
    return "PostgreSQL (DATABASE_URL)";
  }
}

/** Whether the database named by `url` exists (a SQLite file; a PostgreSQL database on its server). */
export async function databaseExists(url: string): Promise<boolean> {
  if (providerOf(url) === "sqlite") {
    const file = sqliteFile(url);
    return existsSync(file) && statSync(file).size > 0;
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    return true;
  } catch (error) {
    // 3D000: invalid_catalog_name, "database … does not exist". Anything else (a server down,
    // a wrong password) is not an answer to this question: the caller gets the error.
    if ((error as { code?: string }).code === "3D000") return false;
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates the (empty) database `url` names. SQLite: its folder and an empty file; PostgreSQL: CREATE DATABASE. */
export async function createDatabase(url: string): Promise<void> {
  if (providerOf(url) === "sqlite") {
    const file = sqliteFile(url);
    mkdirSync(dirname(file), { recursive: true });
    new Database(file).close();
    return;
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!name) throw new Error("DATABASE_URL names no database to create");
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } catch (error) {
    // 42P04: duplicate_database — another process created it meanwhile; that is what we wanted.
    if ((error as { code?: string }).code !== "42P04") throw error;
  } finally {
    await client.end();
  }
}

/** The committed migrations' names for a provider, in order. `root` is the project folder. */
export function committedMigrations(provider: DbProvider, root: string): string[] {
  const dir = join(/* turbopackIgnore: true */ root, "prisma", provider, "migrations");
  return readdirSync(/* turbopackIgnore: true */ dir, { withFileTypes: true })
    .filter(
      (e) => e.isDirectory() && existsSync(join(/* turbopackIgnore: true */ dir, e.name, "migration.sql")),
    )
    .map((e) => e.name)
    .sort();
}

export type MigrationState = {
  /** Committed and recorded as finished. */
  applied: string[];
  /** Committed but not (successfully) applied. */
  pending: string[];
  /** Started and never finished (a failed `migrate deploy`): Prisma refuses to go on until resolved. */
  failed: string[];
};

/** Which committed migrations the database has (reads `_prisma_migrations`; a missing table = none). */
export async function migrationState(url: string, root: string): Promise<MigrationState> {
  const provider = providerOf(url);
  const committed = committedMigrations(provider, root);
  const rows = await readMigrationRows(url);
  const finished = new Set(rows.filter((r) => r.finished && !r.rolledBack).map((r) => r.name));
  const failed = rows.filter((r) => !r.finished && !r.rolledBack).map((r) => r.name);
  return {
    applied: committed.filter((name) => finished.has(name)),
    pending: committed.filter((name) => !finished.has(name)),
    failed: [...new Set(failed)],
  };
}

type MigrationRow = { name: string; finished: boolean; rolledBack: boolean };

async function readMigrationRows(url: string): Promise<MigrationRow[]> {
  const sql =
    "SELECT migration_name AS name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back FROM _prisma_migrations";
  if (providerOf(url) === "sqlite") {
    const db = new Database(sqliteFile(url), { readonly: true, fileMustExist: true, timeout: 5_000 });
    try {
      const table = db.prepare(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'",
      );
      if (!table.get()) return [];
      return (db.prepare(sql).all() as { name: string; finished: number; rolled_back: number }[]).map(
        (r) => ({
          name: r.name,
          finished: !!r.finished,
          rolledBack: !!r.rolled_back,
        }),
      );
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const exists = await client.query("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present");
    if (!exists.rows[0]?.present) return [];
    const { rows } = await client.query<{ name: string; finished: boolean; rolled_back: boolean }>(sql);
    return rows.map((r) => ({ name: r.name, finished: r.finished, rolledBack: r.rolled_back }));
  } finally {
    await client.end();
  }
}
