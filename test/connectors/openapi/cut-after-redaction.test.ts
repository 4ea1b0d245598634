import { describe, expect, test } from "vitest";
import { objectMarkdown } from "@/server/connectors/openapi/render-api-response";
import { shownPrefix } from "@/server/connectors/sdk/markdown";
import { withPageScope } from "@/server/connectors/sdk/page-scope";
import { redactText } from "@/server/redact-secrets";
import { noteVaultValue } from "@/server/vault-values";

/**
 * Issue 19 (held-out): text cut for a page was cut before it was redacted, so a secret that
 * straddled the cut lost its end and, with it, what made it recognisable — its start was shown.
 */
const SECRET = "Zx9Qm2Lr7Tb4Vn8Kp3Wd6Hs1";
noteVaultValue(SECRET);

describe("text is redacted first, then cut", () => {
  test("a vault value straddling a cell's 160-character cut shows no part of it", async () => {
    const { value } = await withPageScope(redactText, () =>
      objectMarkdown({
        id: "acct_1",
        note: "n".repeat(140) + SECRET,
        message: `Invalid credentials '${SECRET}'`,
      }),
    );
    expect(value).not.toContain(SECRET.slice(0, 8));
    expect(value).toContain("n\\[redacted\\]");
  });

  test("a token straddling an echo's cut is redacted, not left half", async () => {
    const token = "sk_live_abcdefghijklmnopqrstuvwx";
    const { value } = await withPageScope(redactText, () => shownPrefix(`${"x ".repeat(10)}${token}`, 30));
    expect(value).not.toContain("sk_live");
    expect(value).toContain("[redacted]");
  });
});
