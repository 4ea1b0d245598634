import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { checkMasterKey, SHARE_MASTER_KEY_HINT } from "@/server/gateway/master-key-check";
import { REDACTED, redactSecrets, redactText } from "@/server/redact-secrets";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/database";

/**
 * The logger redacts every line (a last line of defence), so Signpost's own words pass the same
 * redaction as an agent's. They must come out as written: an operator told "SIGNPOST_MASTER_KEY:
 * [redacted] it to the value…" cannot follow the instruction, and a migration logged as
 * "[redacted]_add_sign_in_failures" cannot be found. The secrets that look like them still go.
 */
describe("Signpost's own messages survive the log redaction; the secrets shaped like them do not", () => {
  let t: TestDatabase | undefined;
  afterAll(async () => t?.drop());

  it("the refusal to start with another master key reads as written, through the logger's redaction", async () => {
    t = await createTestDatabase("sqlite");
    expect(await checkMasterKey(t.db, randomBytes(32))).toMatchObject({ ok: true, sealed: "created" });
    const refused = await checkMasterKey(t.db, randomBytes(32));
    if (refused.ok) throw new Error("another key was accepted");
    expect(refused.message).toContain(SHARE_MASTER_KEY_HINT);
    expect(redactText(refused.message)).toBe(refused.message);
    const line = { level: 60, event: "start_refused", reason: refused.reason, msg: refused.message };
    expect(redactSecrets(line)).toEqual(line);
  });

  it("every migration's name reads as written", () => {
    const names = ["sqlite", "postgres"].flatMap((provider) =>
      readdirSync(fileURLToPath(new URL(`../../prisma/${provider}/migrations`, import.meta.url))).filter(
        (n) => /^\d{14}_/.test(n),
      ),
    );
    expect(names).toContain("20261130135647_add_sign_in_failures");
    for (const name of names)
      expect(redactText(`Applying migration \`${name}\``)).toBe(`Applying migration \`${name}\``);
    // 14 digits starting 20 pass Luhn one time in ten, and no card network issues them.
    expect(redactText("20261130135647")).toBe("20261130135647");
  });

  it("a credential's name followed by a sentence about it is prose; followed by a value, a secret", () => {
    for (const prose of [
      "SIGNPOST_MASTER_KEY: set it to the value the first instance uses",
      "client_secret: missing from the connector's settings",
      "api_key: is required by this system",
    ])
      expect(redactText(prose), prose).toBe(prose);
    for (const [text, redacted] of [
      ["SIGNPOST_MASTER_KEY: 6f1c0a9b8e7d4c3b2a19", `SIGNPOST_MASTER_KEY: ${REDACTED}`],
      ["SIGNPOST_MASTER_KEY=set", `SIGNPOST_MASTER_KEY=${REDACTED}`],
      ["password: hunter2 please", `password: ${REDACTED} please`],
      ["password: set", `password: ${REDACTED}`],
      ["token: it", `token: ${REDACTED}`],
      ['"password": "set it to this"', `"password": "${REDACTED}"`],
      ["Diners 30569309025904", `Diners ${REDACTED}`],
      ["Mastercard 2223003122003222", `Mastercard ${REDACTED}`],
    ])
      expect(redactText(text as string), text).toBe(redacted);
  });
});
