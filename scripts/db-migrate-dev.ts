// `npm run db:migrate -- <name>`: after editing prisma/sqlite/schema.prisma, write the next
// migration for BOTH providers and regenerate the clients. Each provider's `prisma migrate
// dev` runs against a throwaway database (so your data/ database is never reset); applying
// the new migrations to your own database happens at the next `npm start` (migrate deploy).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { postgresSchemaFrom, postgresSchemaPath, sqliteSchemaPath } from "./sync-postgres-schema";

const root = fileURLToPath(new URL("..", import.meta.url));
const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/i.test(name)) {
  console.error("usage: npm run db:migrate -- <migration_name>   (letters, digits, _)");
  process.exit(2);
}
const adminUrl = process.env.MIGRATE_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

function prisma(args: string[], databaseUrl: string): void {
  const result = spawnSync("npx", ["prisma", ...args], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

writeFileSync(postgresSchemaPath, postgresSchemaFrom(readFileSync(sqliteSchemaPath, "utf8")));

const dir = mkdtempSync(join(tmpdir(), "signpost-migrate-"));
try {
  console.log("\n== SQLite");
  prisma(["migrate", "dev", "--name", name], `file:${join(dir, "dev.db")}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log("\n== PostgreSQL");
const database = `signpost_migrate_${Date.now()}`;
const admin = new pg.Client({ connectionString: adminUrl });
try {
  await admin.connect();
} catch (error) {
  console.error(
    `PostgreSQL is not reachable at ${adminUrl} (${String(error)}). The PostgreSQL migration was NOT written;` +
      " start PostgreSQL (or set MIGRATE_POSTGRES_URL) and run this again — the SQLite one is already there.",
  );
  process.exit(1);
}
await admin.query(`CREATE DATABASE "${database}"`);
try {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  prisma(["migrate", "dev", "--name", name], url.toString());
} finally {
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.end();
}

console.log("\n== Clients");
spawnSync("npm", ["run", "db:generate"], { cwd: root, stdio: "inherit" });
