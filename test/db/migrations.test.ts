import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { postgresSchemaFrom, postgresSchemaPath, sqliteSchemaPath } from "@/scripts/sync-postgres-schema";
import { type DbProvider, sqliteFile } from "@/server/db/database-url";
import { applyMigrationsDirect, listMigrations, migrateDeploy } from "@/server/db/migrations";
import { createTestDatabase, describeEachProvider, type TestDatabase } from "@/test/helpers/database";

// Protects: (1) the PostgreSQL schema is the SQLite schema with only provider/output changed;
// (2) the committed migrations of each provider produce exactly schema.prisma (Prisma's own
// diff, through our WASM schema-engine shim); (3) the fast in-process migrator used by tests
// builds the same database as `prisma migrate deploy`, and Prisma accepts its bookkeeping.

const root = join(dirname(new URL(import.meta.url).pathname), "../..");
const prismaCli = join(
  dirname(createRequire(import.meta.url).resolve("prisma/package.json")),
  "build/index.js",
);

function prisma(args: string[], databaseUrl: string) {
  const result = spawnSync(process.execPath, [prismaCli, ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    encoding: "utf8",
    timeout: 90_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("the two schemas", () => {
  it("differ only in provider and generator output", () => {
    const sqlite = readFileSync(sqliteSchemaPath, "utf8");
    expect(readFileSync(postgresSchemaPath, "utf8")).toBe(postgresSchemaFrom(sqlite));
  });

  // A schema change is one migration per provider, made together: the same step, in the same
  // order, under each provider's own timestamp. One made for a single provider fails here.
  it("each provider has the same migrations, in the same order", () => {
    const steps = (provider: DbProvider) =>
      listMigrations(provider).map((m) => m.name.replace(/^\d{14}_/, ""));
    expect(steps("sqlite")).toContain("init");
    expect(steps("postgres")).toEqual(steps("sqlite"));
  });
});

async function structureOf(provider: DbProvider, url: string): Promise<unknown> {
  if (provider === "sqlite") {
    const db = new Database(sqliteFile(url), { readonly: true });
    try {
      return db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all();
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query(
      `SELECT table_name, column_name, data_type, is_nullable, column_default, character_maximum_length
       FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name`,
    );
    const indexes = await client.query(
      "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname",
    );
    const constraints = await client.query(
      `SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY conname`,
    );
    // Functions and triggers too: a PL/pgSQL body (dollar-quoted, with its own semicolons) must
    // reach the database whole through Prisma's engine shim, as it does in-process.
    const functions = await client.query(
      `SELECT proname, prosrc FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY proname`,
    );
    const triggers = await client.query(
      `SELECT tgrelid::regclass::text AS tbl, tgname, pg_get_triggerdef(oid) AS def
       FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname`,
    );
    return {
      columns: columns.rows,
      indexes: indexes.rows,
      constraints: constraints.rows,
      functions: functions.rows,
      triggers: triggers.rows,
    };
  } finally {
    await client.end();
  }
}

describeEachProvider("migrations on %s", (provider) => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of databases) await database.drop();
  });

  it("produce exactly schema.prisma (prisma migrate diff --exit-code)", async () => {
    const scratch = await createTestDatabase(provider); // the URL only tells Prisma which provider
    databases.push(scratch);
    const result = prisma(
      [
        "migrate",
        "diff",
        "--from-migrations",
        `prisma/${provider}/migrations`,
        "--to-schema",
        `prisma/${provider}/schema.prisma`,
        "--exit-code",
      ],
      scratch.url,
    );
    expect(result.output).toContain("No difference detected");
    expect(result.status).toBe(0);
  }, 120_000);

  it("applied in-process give the same database as prisma migrate deploy", async () => {
    const viaPrisma = await createTestDatabase(provider);
    const direct = await createTestDatabase(provider);
    databases.push(viaPrisma, direct);
    await viaPrisma.db.$disconnect();
    // Start from an empty database, then let Prisma's own engine apply the migrations.
    if (provider === "sqlite") {
      const file = sqliteFile(viaPrisma.url);
      const { rmSync } = await import("node:fs");
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
    } else {
      const client = new pg.Client({ connectionString: viaPrisma.url });
      await client.connect();
      await client.query("DROP SCHEMA public CASCADE; CREATE SCHEMA public;");
      await client.end();
    }
    await migrateDeploy(viaPrisma.url);
    const deployed = await structureOf(provider, viaPrisma.url);
    expect(await structureOf(provider, direct.url)).toEqual(deployed);
    if (provider === "postgres") {
      const { functions, triggers } = deployed as { functions: { prosrc: string }[]; triggers: unknown[] };
      // The config-version trigger's body kept its statements (adapter-pg alone would split it at `;`).
      expect(functions.map((f) => f.prosrc).join("")).toContain(
        '"configVersion" + 1 WHERE "id" = OLD."tenantId";',
      );
      expect(triggers.length).toBeGreaterThanOrEqual(4);
    }

    // Prisma reads the in-process bookkeeping as its own: nothing pending, nothing drifted.
    const status = prisma(["migrate", "status"], direct.url);
    expect(status.output).toContain("Database schema is up to date");
    expect(status.status).toBe(0);
    // Re-applying is a no-op.
    await applyMigrationsDirect(direct.url);
    expect(await structureOf(provider, direct.url)).toEqual(await structureOf(provider, viaPrisma.url));
  }, 120_000);
});
