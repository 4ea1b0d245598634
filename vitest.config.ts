import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { E2eFirstSequencer } from "./test/setup/e2e-first-sequencer";

/**
 * Files that change what the process holds for every later file in it: the environment, module
 * mocks or spies, fake timers, the working directory, or children that inherit the environment
 * (and the e2e and start files, which run whole processes). Each runs in its own module graph
 * (`isolate: true`). Every other file shares one module graph per worker (`isolate: false`): its
 * world (database, servers, clients) is its own, and the server's caches are keyed by database.
 * On two cores the 92 MCP files took 159 s isolated and 44 s sharing, most of the difference
 * import time (each isolated file imports the server anew, ~1.5–2 s). A file that changes
 * process state belongs here: test/layering/isolated-test-files.test.ts fails on one that does
 * and is not listed.
 */
export const ISOLATED_FILES = [
  "test/e2e/**/*.test.ts",
  "test/start/**/*.test.ts",
  "test/browse/browse-refusals.test.ts",
  "test/connections/person-connections.test.ts",
  "test/connectors/openapi/connect-openapi-cli.test.ts",
  "test/connectors/openapi/console-import-route.test.ts",
  "test/connectors/openapi/import-off-thread.test.ts",
  "test/db/seed-demo.test.ts",
  "test/db/sqlite-sync.test.ts",
  "test/egress/egress-policy.test.ts",
  "test/gateway/connector-settings.test.ts",
  "test/gateway/crash-recovery.test.ts",
  "test/gateway/permission-agreement.test.ts",
  "test/gateway/vault.test.ts",
  "test/mcp/answered-calls-leave-nothing.test.ts",
  "test/mcp/connector-answer-read.test.ts",
  "test/mcp/rate-limit.test.ts",
  "test/mcp/script-attacks.test.ts",
  "test/mcp/script-face.test.ts",
  "test/mcp/secrets-redacted-everywhere.test.ts",
  "test/oauth/mcp-oauth.test.ts",
  "test/oauth/oauth-refusals.test.ts",
  // Reads the egress allow list (process.env) that other files extend: a collector on a port an
  // earlier file allowed (ports are reused) was delivered to, not refused (a CI run of stop 61).
  "test/telemetry/otlp-egress.test.ts",
  // The same for a person's OAuth token endpoint on loopback (a CI run of stop 64).
  "test/connections/person-oauth-egress.test.ts",
];

const ALL_FILES = ["test/**/*.test.ts", "connectors/**/*.test.ts"];

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores: integration suites start real servers; keep parallelism modest. (One pool for
    // both projects below.)
    maxWorkers: 2,
    sequence: { sequencer: E2eFirstSequencer },
    // One decision per run on whether PostgreSQL variants run; the reporter prints what that cost.
    globalSetup: ["test/setup/postgres-global-setup.ts"],
    reporters: ["default", "./test/setup/postgres-skip-reporter.ts", "./test/setup/haproxy-skip-reporter.ts"],
    // The logger writes straight to stdout; in-process tests keep to warnings (servers a test
    // starts get their own LOG_LEVEL).
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" },
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include: ALL_FILES,
          exclude: [...configDefaults.exclude, ...ISOLATED_FILES],
          isolate: false,
        },
      },
      { extends: true, test: { name: "isolated", include: ISOLATED_FILES } },
    ],
  },
});
