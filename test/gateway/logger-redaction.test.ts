import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

interface ErrorFields {
  type: string;
  message: string;
  stack: string;
}
/** The fields the error case reads, each on the lines that have it. */
type LoggedError = Record<string, unknown> & {
  msg: string;
  err: ErrorFields;
  where: { error: ErrorFields };
  bound: ErrorFields;
};

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

  it("the fixed credential fields are censored whatever their value, at the depth they always were", () => {
    // The places pino's path redaction covered (a field, the same one level down, a request's
    // headers): a value of any type there is written as "[redacted]", booleans and null too; the
    // audit's redaction covers strings and objects under credential names at any depth besides.
    const script = `
      import { logger } from "./server/logger.ts";
      logger.info({
        password: true, apiKey: null, key: false, authorization: 7, cookie: { c: 1 }, value: true, secret: null,
        req: { password: false, apiKey: true, key: null, authorization: false, cookie: true, secret: false,
          headers: { authorization: null, cookie: false, accept: "text/html" } },
        headers: { authorization: "Digest SeCrEtDiGeSt", cookie: "sid=SeCrEtCoOkIe" },
        creds: { password: "SeCrEtPaSs", apiKey: "SeCrEtApIkEy", key: "SeCrEtKeY", secret: "SeCrEtSeCrEt" },
        deeper: { a: { password: true }, b: { value: true } },
        form: { value: false },
        ok: true,
      }, "fixed fields");
    `;
    const run = spawnSync(process.execPath, ["--import", tsx, "--input-type=module", "-e", script], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "info" },
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/SeCrEt/);
    const line = JSON.parse(run.stdout.trim()) as Record<string, unknown>;
    const R = "[redacted]";
    expect(line).toMatchObject({
      password: R,
      apiKey: R,
      key: R,
      authorization: R,
      cookie: R,
      value: R,
      secret: R,
      req: {
        password: R,
        apiKey: R,
        key: R,
        authorization: R,
        cookie: R,
        secret: R,
        headers: { authorization: R, cookie: R, accept: "text/html" },
      },
      headers: { authorization: R, cookie: R },
      creds: { password: R, apiKey: R, key: R, secret: R },
      // Below those places a boolean stays what it was: it says whether, never what.
      deeper: { a: { password: true }, b: { value: true } },
      form: { value: false },
      ok: true,
    });
  });

  it("an error's message, stack, fields and causes, and the message's %o/%j/%s arguments, are redacted too", () => {
    // Found by review: an Error's text is not an own enumerable field, so the field redaction
    // never saw it; pino then took the message from it (`logger.error(err)`), and format
    // arguments were joined into the message after it was redacted. A child's fields skipped
    // the bindings formatter altogether.
    const script = `
      import { logger } from "./server/logger.ts";
      const inner = new Error("refused key sk_live_CaUsEsEcReT0123456789");
      const err = new Error(
        "GET https://api.test/v1/x?token=ToKeNsEcReT1 failed: Authorization: Bearer BeArErSeCrEt0123456789, card 4111 1111 1111 1111",
        { cause: inner },
      );
      err.code = "E_UPSTREAM";
      err.apiKey = "FiElDsEcReT";
      logger.error({ err }, "upstream failed");
      logger.error(err);
      logger.warn({ where: { error: err } }, "nested");
      logger.error({ err: new AggregateError([inner], "several failed") }, "aggregate");
      logger.info("args %o then %j then %s", { note: "Bearer ArGsEcReT0123456789" }, { password: "PaSsArGsEcReT", value: "VaLuEsEcReT" }, err);
      const looped = new Error("looped"); looped.cause = looped;
      logger.error({ err: looped }, "a cause that is itself");
      logger.child({ bound: err, url: "https://x.test/?token=ChIlDsEcReT" }).child({ n: 4111111111111111n }).info("child");
    `;
    const run = spawnSync(process.execPath, ["--import", tsx, "--input-type=module", "-e", script], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "info" },
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/SeCrEt|4111 1111/);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as LoggedError);
    expect(lines).toHaveLength(7);
    const [fields, bare, nested, aggregate, args, looped, child] = lines;
    // Support still reads what failed, where and why: only the secret parts go.
    expect(fields?.err).toMatchObject({
      type: "Error",
      message:
        "GET https://api.test/v1/x?token=[redacted] failed: Authorization: [redacted], card [redacted]",
      code: "E_UPSTREAM",
      apiKey: "[redacted]",
      cause: { type: "Error", message: "refused key [redacted]" },
    });
    expect(fields?.err.stack).toMatch(
      /^Error: GET https:\/\/api\.test\/v1\/x\?token=\[redacted\][^\n]*\n\s+at /,
    );
    expect(fields?.msg).toBe("upstream failed");
    expect(bare?.msg).toBe(fields?.err.message);
    expect(bare?.err.type).toBe("Error");
    expect(nested?.where.error.message).toBe(fields?.err.message);
    expect(aggregate?.err).toMatchObject({
      type: "AggregateError",
      message: "several failed",
      errors: [{ type: "Error", message: "refused key [redacted]" }],
    });
    expect(args?.msg).toContain("args {");
    expect(args?.msg).toContain("then Error: GET https://api.test/v1/x?token=[redacted]");
    expect(looped?.err.message).toBe("looped");
    // A child's fields, its child's too (pino writes them without the bindings formatter).
    expect(child).toMatchObject({ url: "https://x.test/?token=[redacted]", n: "[redacted]" });
    expect(child?.bound.message).toBe(fields?.err.message);
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
