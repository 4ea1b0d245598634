import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { checkServerConfig, demoConfigSchema } from "@/server/config/signpost-config";

// Issue 10: "Configuration is validated at start with readable errors (every variable, including
// the call budget)." One line per problem: the variable, what it holds (never a secret) and what
// it must be; a start with any of them exits non-zero before it touches a database.

const root = fileURLToPath(new URL("../..", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

const BAD: Record<string, string> = {
  PORT: "eighty",
  DATABASE_URL: "mysql://db/signpost",
  SIGNPOST_MASTER_KEY: "too-short-to-be-a-key",
  SIGNPOST_PUBLIC_URL: "signpost.example.com",
  SIGNPOST_ALLOWED_HOSTS: "a.example.com, not a host",
  SIGNPOST_LEGACY_URL: "ftp://legacy",
  SIGNPOST_EGRESS_ALLOW: "10.0.0.0/8, 10.0.0.0/40",
  SIGNPOST_TRUST_PROXY: "yes",
  SIGNPOST_SMTP_URL: "mail.example.com:587",
  SIGNPOST_MAIL_FROM: "Signpost",
  SIGNPOST_AGENT_RATE_LIMIT: "12/min",
  SIGNPOST_REDIS_URL: "localhost:6379",
  SIGNPOST_MONITOR_POLL_MS: "10",
  SIGNPOST_METRICS_TOKEN: "short",
  SIGNPOST_JOBS: "maybe",
  SIGNPOST_JOBS_INTERVAL_S: "0",
  SIGNPOST_AUDIT_RETENTION_DAYS: "-1",
  SIGNPOST_SHUTDOWN_GRACE_S: "soon",
  SIGNPOST_REQUEST_STATE_KEY: "short",
  LOG_LEVEL: "verbose",
};

describe("start-up configuration", () => {
  it("docs/configuration.md's tables name exactly the variables the starts check", () => {
    const doc = readFileSync(join(root, "docs/configuration.md"), "utf8");
    const section = doc.slice(0, doc.indexOf("### Outbound requests"));
    const documented = [...section.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(new Set(documented).size, "a variable documented twice").toBe(documented.length);
    expect(documented.sort()).toEqual(Object.keys(demoConfigSchema.shape).sort());
  });

  it("defaults when nothing is set", () => {
    const checked = checkServerConfig({});
    expect(checked).toMatchObject({
      ok: true,
      config: {
        PORT: 3000,
        SIGNPOST_AGENT_RATE_LIMIT: 600,
        SIGNPOST_JOBS: true,
        SIGNPOST_JOBS_INTERVAL_S: 30,
        SIGNPOST_AUDIT_RETENTION_DAYS: 90,
        SIGNPOST_SHUTDOWN_GRACE_S: 20,
        LOG_LEVEL: "info",
        SIGNPOST_TRUST_PROXY: 0,
      },
    });
  });

  it("names every invalid variable, with its value unless it is a secret", () => {
    const checked = checkServerConfig(BAD);
    expect(checked.ok).toBe(false);
    const errors = checked.ok ? [] : checked.errors;
    for (const name of Object.keys(BAD))
      expect(
        errors.some((e) => e.startsWith(name)),
        `${name} in ${errors.join("\n")}`,
      ).toBe(true);
    const all = errors.join("\n");
    expect(all).toContain("SIGNPOST_AGENT_RATE_LIMIT must be a whole number: calls per minute per agent key");
    expect(all).toContain('(it is "12/min")');
    // The egress allow list names the entry that is wrong, not just the variable.
    expect(all).toContain('SIGNPOST_EGRESS_ALLOW: "10.0.0.0/40" is not a CIDR range');
    // Secrets are described, never shown.
    for (const secret of ["too-short-to-be-a-key", "short"]) expect(all).not.toContain(`"${secret}"`);
    expect(all).toContain("SIGNPOST_MASTER_KEY must be 32 bytes");
    expect(all).toMatch(/SIGNPOST_MASTER_KEY.*\(set, 21 characters; not shown\)/);
  });

  it("masks a password in a URL it shows", () => {
    const checked = checkServerConfig({ SIGNPOST_REDIS_URL: "http://user:hunter2@redis:6379" });
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.errors.join()).toContain("user:***@redis");
      expect(checked.errors.join()).not.toContain("hunter2");
    }
  });

  it("`serve` refuses to start on any of them: exit 1, one JSON line listing each", () => {
    const result = spawnSync(process.execPath, ["--import", tsx, join(root, "scripts/serve.ts")], {
      cwd: root,
      env: { ...process.env, ...BAD, DATABASE_URL: "", SIGNPOST_DATA_DIR: "/nonexistent/never-created" },
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(result.status).toBe(1);
    const lines = `${result.stdout}`.trim().split("\n");
    const refusal = JSON.parse(lines.at(-1) ?? "{}");
    expect(refusal).toMatchObject({ level: 60, event: "start_refused" });
    expect(refusal.msg).toContain("invalid configuration");
    expect(refusal.msg).toContain("SIGNPOST_AGENT_RATE_LIMIT");
    expect(refusal.errors.length).toBeGreaterThanOrEqual(Object.keys(BAD).length - 1);
  }, 120_000);
});
