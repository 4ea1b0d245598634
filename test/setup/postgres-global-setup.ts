import pg from "pg";
import type { TestProject } from "vitest/node";

/** Where throwaway PostgreSQL databases are created (override with TEST_POSTGRES_URL). */
const adminUrl = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

declare module "vitest" {
  interface ProvidedContext {
    /** Why the PostgreSQL variants do not run in this run; null when they do. */
    postgresSkipReason: string | null;
  }
}

async function reasonToSkip(): Promise<string | null> {
  if (process.env.SIGNPOST_TEST_SKIP_POSTGRES === "1") return "SIGNPOST_TEST_SKIP_POSTGRES=1 is set";
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (error) {
    const redacted = adminUrl.replace(/\/\/[^@/]*@/, "//…@");
    return `PostgreSQL does not answer at ${redacted} (${(error as Error).message || "no answer"})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Decides once per run whether the PostgreSQL variants run, and why not: every worker reads the
 * answer with `inject("postgresSkipReason")`, and the skip reporter prints how many tests it cost.
 * Where PostgreSQL must be there (`SIGNPOST_TEST_REQUIRE_POSTGRES=1`, set by `.ci/run` on machines
 * that run it), its absence fails the run instead of shrinking it.
 */
export default async function setup(project: TestProject) {
  const reason = await reasonToSkip();
  if (reason && process.env.SIGNPOST_TEST_REQUIRE_POSTGRES === "1")
    throw new Error(`SIGNPOST_TEST_REQUIRE_POSTGRES=1 but the PostgreSQL variants cannot run: ${reason}`);
  project.provide("postgresSkipReason", reason);
  process.env.SIGNPOST_TEST_POSTGRES_SKIP_REASON = reason ?? "";
}
