import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import {
  createTestDatabase,
  describeEachProvider,
  type TestDatabase,
  testPostgresAdminUrl,
} from "@/test/helpers/database";

// Protects the next engineer's workflow: after a schema change, `prisma migrate dev` (through
// our WASM schema-engine shim, no binary download) writes the new migration and applies it —
// on a brand-new SQLite file and on PostgreSQL with its shadow database, leaving nothing behind.

const root = fileURLToPath(new URL("../..", import.meta.url));
const prismaCli = join(
  dirname(createRequire(import.meta.url).resolve("prisma/package.json")),
  "build/index.js",
);

describeEachProvider("prisma migrate dev on %s", (provider) => {
  const dir = mkdtempSync(join(tmpdir(), `signpost-migrate-dev-${provider}-`));
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes and applies a migration for a new field", async () => {
    // A scratch copy of the schema and migrations, so the repository is never touched.
    cpSync(join(root, "prisma", provider, "migrations"), join(dir, "migrations"), { recursive: true });
    const schema = readFileSync(join(root, "prisma", provider, "schema.prisma"), "utf8")
      .replace(/output\s*=\s*"[^"]*"/, `output = "${join(dir, "generated")}"`)
      .replace(
        "  enabled   Boolean  @default(true)\n",
        "  enabled   Boolean  @default(true)\n  notes     String?\n",
      );
    expect(schema).toContain("notes     String?");
    writeFileSync(join(dir, "schema.prisma"), schema);
    let url = `file:${join(dir, "dev.db")}`; // brand-new file: the engine must cope with no migrations table
    if (provider === "postgres") {
      database = await createTestDatabase("postgres");
      await database.db.$disconnect();
      url = database.url;
    }
    writeFileSync(
      join(dir, "prisma.config.mjs"),
      `export default ${JSON.stringify({ schema: join(dir, "schema.prisma"), migrations: { path: join(dir, "migrations") }, datasource: { url } })};\n`,
    );
    const result = spawnSync(
      process.execPath,
      [prismaCli, "migrate", "dev", "--name", "add_notes", "--config", join(dir, "prisma.config.mjs")],
      {
        cwd: root,
        encoding: "utf8",
        timeout: 120_000,
        env: {
          ...process.env,
          PRISMA_SCHEMA_ENGINE_BINARY: join(root, "prisma/engine/schema-engine.mjs"),
          PRISMA_HIDE_UPDATE_MESSAGE: "1",
        },
      },
    );
    const output = `${result.stdout}${result.stderr}`;
    expect(output).toContain("Your database is now in sync with your schema");
    expect(result.status).toBe(0);
    const created = readdirSync(join(dir, "migrations")).filter((name) => name.endsWith("_add_notes"));
    expect(created).toHaveLength(1);
    const sql = readFileSync(join(dir, "migrations", created[0] ?? "", "migration.sql"), "utf8");
    expect(sql).toMatch(/ALTER TABLE "ConnectorConfig" ADD COLUMN\s+"notes" TEXT/);

    if (provider === "postgres") {
      const admin = new pg.Client({ connectionString: testPostgresAdminUrl });
      await admin.connect();
      try {
        const shadows = await admin.query(
          "SELECT datname FROM pg_database WHERE datname LIKE 'prisma_migrate_shadow_db_%'",
        );
        expect(shadows.rows).toEqual([]);
      } finally {
        await admin.end();
      }
      const check = new pg.Client({ connectionString: url });
      await check.connect();
      try {
        const notes = await check.query(
          "SELECT 1 FROM information_schema.columns WHERE table_name = 'ConnectorConfig' AND column_name = 'notes'",
        );
        expect(notes.rowCount).toBe(1);
      } finally {
        await check.end();
      }
    }
  }, 180_000);
});
