import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/**
 * The process logger (pino, one JSON line each) passes every line through the same redaction as
 * audit rows: a card number or a credential that reaches a log call, as a field or inside the
 * message, never reaches stdout.
 */
describe("log lines are redacted", () => {
  it("card numbers, prefixed tokens, bearer strings and credential-named fields never reach stdout", () => {
    const script = `
      import { logger } from "./server/logger.ts";
      logger.info({ note: "card 4111 1111 1111 1111", target: "shop://order/x?token=abc123secret", nested: { api_key: "k_live_zzz" } }, "paid with 5555555555554444 using sk_live_4eC39HqLyjWDarjtT1zdp7dc");
      logger.warn("Authorization: Bearer abcdef0123456789xyz");
    `;
    const run = spawnSync(process.execPath, ["--import", tsx, "--input-type=module", "-e", script], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "info" },
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    const out = run.stdout;
    for (const secret of [
      "4111 1111",
      "5555555555554444",
      "sk_live_4eC39",
      "abc123secret",
      "k_live_zzz",
      "abcdef0123456789",
    ])
      expect(out, secret).not.toContain(secret);
    // What support needs to read the line stays.
    expect(lines[0]).toMatchObject({ note: "card [redacted]", target: "shop://order/x?token=[redacted]" });
    expect(String(lines[0]?.msg)).toMatch(/^paid with \[redacted\] using \[redacted\]$/);
  });

  it("a vault value the process used is scrubbed from every line, as is and base64", () => {
    const script = `
      import { noteVaultValue } from "./server/vault-values.ts";
      import { logger } from "./server/logger.ts";
      noteVaultValue("Hq7vNw2Lx9Pz4Kt");
      logger.warn({ upstream: "echoed Hq7vNw2Lx9Pz4Kt back", b64: "${Buffer.from("Hq7vNw2Lx9Pz4Kt").toString("base64")}" }, "answer had Hq7vNw2Lx9Pz4Kt");
    `;
    const run = spawnSync(process.execPath, ["--import", tsx, "--input-type=module", "-e", script], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "info" },
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("echoed [redacted] back");
    expect(run.stdout).not.toContain("Hq7vNw2Lx9Pz4Kt");
    expect(run.stdout).not.toContain(Buffer.from("Hq7vNw2Lx9Pz4Kt").toString("base64"));
  });
});
