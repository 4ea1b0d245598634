import type { Reporter, TestModule } from "vitest/node";
import { haproxyAvailable, haproxyPath } from "../e2e/helpers/haproxy";

/** A test needs HAProxy when its name or one of its suites' names says so. */
const onHaproxy = /haproxy/i;

/**
 * Prints one line at the end of a run naming how many HAProxy tests did not run because HAProxy
 * is not installed here (.ci/run installs it), so a run that shrank never looks like a full one.
 */
export default class HaproxySkipReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    if (haproxyAvailable()) return;
    let skipped = 0;
    for (const module of testModules)
      for (const test of module.children.allTests("skipped")) if (onHaproxy.test(test.fullName)) skipped++;
    process.stdout.write(
      `\n[signpost tests] ${skipped} HAProxy tests did not run: ${haproxyPath} is not installed (apt-get install -y haproxy).\n`,
    );
  }
}
