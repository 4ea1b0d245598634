import { describe, inject } from "vitest";
import type { Db } from "@/server/db/client";
import type { DbProvider } from "@/server/db/database-url";

// The throwaway databases live with the connector kit (sdk-testing/), which a connector's own
// tests use too; what needs the test runner stays here.
export {
  createTestDatabase,
  postgresAvailable,
  type TestDatabase,
  testPostgresAdminUrl,
} from "@/sdk-testing/test-database";

/**
 * Why the PostgreSQL variants do not run in this run, or null when they do. Decided once by the
 * global setup (test/setup/postgres-global-setup.ts), which the skip reporter also reads.
 */
export function postgresSkipReason(): string | null {
  const reason = inject("postgresSkipReason");
  return reason === undefined ? "the PostgreSQL global setup did not run" : reason;
}

/**
 * Declares one suite per database provider: SQLite always; PostgreSQL registered too, and
 * skipped (counted and explained at the end of the run) when it cannot run. `%s` in the name
 * becomes the provider.
 */
export function describeEachProvider(name: string, fn: (provider: DbProvider) => void) {
  for (const provider of ["sqlite", "postgres"] as const) {
    const skip = provider === "postgres" && postgresSkipReason() !== null;
    (skip ? describe.skip : describe)(name.replaceAll("%s", provider), () => fn(provider));
  }
}

type AuditRowInput = Omit<Parameters<Db["auditEvent"]["create"]>[0]["data"], "seq">;

/**
 * Inserts audit rows straight into the table (fixtures, bulk loads), numbering them from each
 * tenant's counter the way recordAuditEvent does, so they never collide with rows the app writes.
 */
export async function insertAuditRows(db: Db, rows: AuditRowInput[]) {
  return db.$transaction(async (tx) => {
    const perTenant = new Map<string, number>();
    for (const row of rows) perTenant.set(row.tenantId, (perTenant.get(row.tenantId) ?? 0) + 1);
    const next = new Map<string, number>();
    for (const [tenantId, n] of perTenant) {
      const c = await tx.auditCounter.upsert({
        where: { tenantId },
        create: { tenantId, seq: n },
        update: { seq: { increment: n } },
      });
      next.set(tenantId, c.seq - n + 1);
    }
    const data = rows.map((row) => {
      const seq = next.get(row.tenantId) as number;
      next.set(row.tenantId, seq + 1);
      return { ...row, seq };
    });
    await tx.auditEvent.createMany({ data: data as never });
    return data;
  });
}
