import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { E2eFirstSequencer } from "./test/setup/e2e-first-sequencer";

/**
 * Pure unit files: no server, database, child process, environment change, mock or timer of
 * their own, and no module state they change. They share one module graph per worker
 * (`isolate: false`): on two cores, loaded, these 23 files took 347 s isolated and 140–161 s
 * sharing, most of it import time (each isolated file imports its modules anew: ~1.4 s a file in CI). A file that starts anything or changes shared state belongs
 * in the isolated project.
 */
export const UNIT_FILES = [
  "test/browse/markdown.test.ts",
  "test/browse/parse-browse-uri.test.ts",
  "test/browse/stemmed-words.test.ts",
  "test/connectors/after-sales-eligibility.test.ts",
  "test/connectors/helpdesk/teammates-heading.test.ts",
  "test/connectors/openapi/cut-after-redaction.test.ts",
  "test/connectors/openapi/load-openapi-document.test.ts",
  "test/connectors/openapi/request-summary-units.test.ts",
  "test/connectors/openapi/row-key.test.ts",
  "test/connectors/openapi/schema-branches.test.ts",
  "test/connectors/sdk/change-labels.test.ts",
  "test/connectors/sdk/visible-text.test.ts",
  "test/connectors/sdk/when-text.test.ts",
  "test/console/audit-query.test.ts",
  "test/console/confirm-decision-standing.test.ts",
  "test/console/confirmation-summary.test.ts",
  "test/console/console-pages.test.ts",
  "test/console/safe-next.test.ts",
  "test/engine/cannot-take-this.test.ts",
  "test/engine/capability-search.test.ts",
  "test/engine/choice-words.test.ts",
  "test/engine/described-records.test.ts",
  "test/engine/later-fields.test.ts",
  "test/engine/negated-words.test.ts",
  "test/engine/options-to-send.test.ts",
  "test/engine/paid-choices.test.ts",
  "test/engine/query-clauses.test.ts",
  "test/engine/record-events.test.ts",
  "test/engine/request-words.test.ts",
  "test/engine/state-ceiling.test.ts",
  "test/engine/why-picked.test.ts",
  "test/gateway/agent-keys.test.ts",
  "test/gateway/lookup-cache.test.ts",
  "test/gateway/passwords.test.ts",
  "test/gateway/permission-pattern.test.ts",
  "test/gateway/quoted-text-and-csv.test.ts",
  "test/gateway/redact-secrets.test.ts",
  "test/gateway/redaction-fast-paths.test.ts",
  "test/gateway/vault-values-scrub.test.ts",
  "test/layering/docs-commands-exist.test.ts",
  "test/layering/imports-point-down.test.ts",
  "test/layering/long-files-say-why.test.ts",
  "test/layering/no-business-words-above-connectors.test.ts",
  "test/mcp/agent-summary.test.ts",
  "test/mcp/money-renderer.test.ts",
  "test/start/runtime-dependencies.test.ts",
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
      { extends: true, test: { name: "unit", include: UNIT_FILES, isolate: false } },
      {
        extends: true,
        test: { name: "isolated", include: ALL_FILES, exclude: [...configDefaults.exclude, ...UNIT_FILES] },
      },
    ],
  },
});
