import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { type DbProvider, providerOf, sqliteFile } from "./database-url";

const root = fileURLToPath(new URL("../..", import.meta.url));

export function migrationsDir(provider: DbProvider): string {
  return join(root, "prisma", provider, "migrations");
}

export type Migration = { name: string; sql: string; checksum: string };

/** The committed migrations of a provider, in order, with the checksum Prisma records. */
export function listMigrations(provider: DbProvider): Migration[] {
  const dir = migrationsDir(provider);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * Prisma's schema engine opens a SQLite file with `locking_mode=EXCLUSIVE`, so `migrate deploy`
 * fails (SQLITE_BUSY, which the WASM engine reports as an unknown `SocketTimeout` variant) while
 * any other process has the file open: a running server, for one.
 */
export class SqliteInUseError extends Error {
  constructor(readonly output: string) {
    super("the SQLite database is open in another process (a running Signpost server?)");
    this.name = "SqliteInUseError";
  }
}

/**
 * Applies pending migrations with `prisma migrate deploy` — the normal Prisma path, through
 * our WASM schema-engine shim (prisma.config.ts). Used by `npm start` and `signpost migrate`.
 * Throws SqliteInUseError when another process holds the SQLite file.
 */
export async function migrateDeploy(url: string): Promise<void> {
  if (providerOf(url) === "sqlite") mkdirSync(dirname(sqliteFile(url)), { recursive: true });
  const prismaCli = join(
    dirname(createRequire(import.meta.url).resolve("prisma/package.json")),
    "build",
    "index.js",
  );
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [prismaCli, "migrate", "deploy"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.on("error", reject);
    child.on("close", resolve);
  });
  if (code !== 0) {
    const text = output.join("");
    if (providerOf(url) === "sqlite" && /SocketTimeout|SQLITE_BUSY|database is locked/.test(text))
      throw new SqliteInUseError(text);
    throw new Error(`prisma migrate deploy failed (exit ${code}):\n${text}`);
  }
  if (providerOf(url) === "sqlite") enableWal(url);
}

/** WAL lets the app, the CLI and tests read while one writes; it persists in the file. */
function enableWal(url: string): void {
  const db = new Database(sqliteFile(url));
  try {
    db.pragma("journal_mode = WAL");
  } finally {
    db.close();
  }
}

// Prisma's own DDL for its bookkeeping table, so `prisma migrate status/deploy` accept a
// database migrated here as their own.
const MIGRATIONS_TABLE: Record<DbProvider, string> = {
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`,
  postgres: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`,
};

/**
 * Applies the committed migrations in-process and records them in `_prisma_migrations` the
 * way Prisma does (sha256 checksum, one step each). `prisma migrate deploy` costs ~3 s per
 * database (CLI start + WASM engine); tests create many throwaway databases, so they use
 * this. test/db/migrations.test.ts proves both paths produce the same database.
 */
export async function applyMigrationsDirect(url: string): Promise<void> {
  const provider = providerOf(url);
  const migrations = listMigrations(provider);
  const now = () => new Date().toISOString();
  if (provider === "sqlite") {
    const file = sqliteFile(url);
    mkdirSync(dirname(file), { recursive: true });
    // Waits for a writer that holds the file (a running server) instead of failing at once.
    const db = new Database(file, { timeout: 15_000 });
    try {
      db.pragma("journal_mode = WAL");
      db.exec(MIGRATIONS_TABLE.sqlite);
      const isApplied = db.prepare(
        "SELECT 1 FROM _prisma_migrations WHERE migration_name = ? AND finished_at IS NOT NULL AND rolled_back_at IS NULL",
      );
      for (const migration of migrations) {
        const startedAt = now();
        // IMMEDIATE: the write lock is taken before the check, so two migrators (or a migrator
        // and a server that writes) cannot both decide a migration is still to do.
        db.transaction(() => {
          if (isApplied.get(migration.name)) return;
          db.exec(migration.sql);
          db.prepare(
            `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
             VALUES (?, ?, ?, ?, ?, 1)`,
          ).run(randomUUID(), migration.checksum, now(), migration.name, startedAt);
        }).immediate();
      }
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(MIGRATIONS_TABLE.postgres);
    const { rows } = await client.query<{ migration_name: string }>(
      "SELECT migration_name FROM _prisma_migrations WHERE rolled_back_at IS NULL",
    );
    const applied = new Set(rows.map((row) => row.migration_name));
    for (const migration of migrations) {
      if (applied.has(migration.name)) continue;
      const startedAt = now();
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, $3, $4, $5, 1)`,
          [randomUUID(), migration.checksum, now(), migration.name, startedAt],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    }
  } finally {
    await client.end();
  }
}
