import { fileURLToPath } from "node:url";
import { describeDatabase, migrationState } from "./database-state";
import { providerOf } from "./database-url";
import { applyMigrationsDirect, migrateDeploy, SqliteInUseError } from "./migrations";

const root = fileURLToPath(new URL("../..", import.meta.url));

export type MigrationReport =
  | { kind: "up_to_date"; applied: number }
  | { kind: "applied"; names: string[]; via: "prisma" | "direct" }
  | { kind: "failed_before"; names: string[]; message: string };

/**
 * Brings the database up to the committed migrations, the way every entry point does it
 * (`npm start`, `npx signpost serve`, `npx signpost migrate`):
 * - nothing pending: nothing runs (so this works beside running servers on SQLite too);
 * - pending: `prisma migrate deploy` (on PostgreSQL its advisory lock makes starts racing on
 *   one database wait for each other);
 * - pending, and a SQLite file another process holds (Prisma's engine wants it exclusively):
 *   the same SQL, applied by the in-process migrator, which waits for the writer's lock and
 *   records `_prisma_migrations` exactly as Prisma does (test/db/migrations.test.ts);
 * - a migration that failed earlier: nothing runs; Prisma wants a person to resolve it.
 */
export async function applyPendingMigrations(url: string): Promise<MigrationReport> {
  const before = await migrationState(url, root);
  if (before.failed.length > 0)
    return {
      kind: "failed_before",
      names: before.failed,
      message: `${describeDatabase(url)} has a migration that started and never finished (${before.failed.join(", ")}). Fix what it left, then \`npx prisma migrate resolve --applied <name>\` (or --rolled-back) and start again.`,
    };
  if (before.pending.length === 0) return { kind: "up_to_date", applied: before.applied.length };
  try {
    await migrateDeploy(url);
    return { kind: "applied", names: before.pending, via: "prisma" };
  } catch (error) {
    if (!(error instanceof SqliteInUseError) || providerOf(url) !== "sqlite") throw error;
    await applyMigrationsDirect(url);
    return { kind: "applied", names: before.pending, via: "direct" };
  }
}

/** One sentence about what applyPendingMigrations did. */
export function describeMigrationReport(report: MigrationReport): string {
  switch (report.kind) {
    case "up_to_date":
      return `Migrations: all ${report.applied} applied, nothing to do.`;
    case "applied":
      return report.via === "prisma"
        ? `Migrations: applied ${report.names.join(", ")}.`
        : `Migrations: applied ${report.names.join(", ")} with Signpost's own migrator (the SQLite file is open in another process, e.g. a running server, and Prisma's engine needs it to itself); restart running servers to use them.`;
    case "failed_before":
      return report.message;
  }
}
