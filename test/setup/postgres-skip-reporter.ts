import type { Reporter, TestModule } from "vitest/node";

/** A test runs on PostgreSQL when its name or one of its suites' names says so. */
const onPostgres = /postgres/i;

/**
 * Prints one line at the end of a run naming how many PostgreSQL tests did not run and why
 * (the reason comes from the global setup), so a run that shrank never looks like a full one.
 */
export default class PostgresSkipReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const reason = process.env.SIGNPOST_TEST_POSTGRES_SKIP_REASON;
    if (!reason) return;
    let skipped = 0;
    for (const module of testModules)
      for (const test of module.children.allTests("skipped")) if (onPostgres.test(test.fullName)) skipped++;
    process.stdout.write(`\n[signpost tests] ${skipped} PostgreSQL tests did not run: ${reason}.\n`);
  }
}
