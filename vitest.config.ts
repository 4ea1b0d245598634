import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["test/**/*.test.ts", "connectors/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores: integration suites start real servers; keep parallelism modest.
    maxWorkers: 2,
    // One decision per run on whether PostgreSQL variants run; the reporter prints what that cost.
    globalSetup: ["test/setup/postgres-global-setup.ts"],
    reporters: ["default", "./test/setup/postgres-skip-reporter.ts", "./test/setup/haproxy-skip-reporter.ts"],
    // The logger writes straight to stdout; in-process tests keep to warnings (servers a test
    // starts get their own LOG_LEVEL).
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" },
  },
});
